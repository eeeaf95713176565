// Must fail lint: a component that writes with useMutation itself, instead of calling its
// feature's hook in <feature>.api.ts. Linted as src/client/features/orders/components/.
import { useMutation } from '@tanstack/react-query';

export function CancelButton({ cancel }: { cancel: () => Promise<void> }) {
  const mutation = useMutation({ mutationFn: cancel });
  return (
    <button type="button" onClick={() => mutation.mutate()}>
      Cancel
    </button>
  );
}
