import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { renewalsApi, type ScalpPhoto, type ScalpView } from '#shared/renewals.ts';
import type { ProgramCategory } from '#shared/visits.ts';
import { call } from '#client/lib/api.ts';

/**
 * Issue 29: a prescription's renewal. Its questions are the visit's own calls; these open it, add a
 * Hair renewal's scalp photos, and send it. Answers and photos travel only in the requests' bodies:
 * nothing here logs or tracks them.
 */

export const renewalKeys = {
  open: (category: ProgramCategory) => ['renewal', 'open', category] as const,
  scalpPhotos: (visitId: number) => ['renewal', 'scalp-photos', visitId] as const,
};

/** Opens the program's renewal that is due, or resumes it: its id and the screen it is on. */
export function useOpenRenewal(category: ProgramCategory) {
  return useQuery({
    queryKey: renewalKeys.open(category),
    queryFn: ({ signal }) =>
      call(renewalsApi.startRenewal, {
        body: { category },
        fallbackMessage: 'We could not open your renewal. Please try again.',
        signal,
      }),
    // Asked afresh each time the page opens: the server decides where the renewal is.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** "Send to my provider": the renewal goes for review; Home and the member area ask again. */
export function useSendRenewal(visitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      call(renewalsApi.sendRenewal, {
        body: { visit_id: visitId, confirm: true },
        fallbackMessage: 'We could not send your answers. Please try again.',
      }),
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}

/** A Hair renewal's current scalp photos, one of each view the patient added. */
export function useScalpPhotos(visitId: number) {
  return useQuery({
    queryKey: renewalKeys.scalpPhotos(visitId),
    queryFn: ({ signal }) =>
      call(renewalsApi.scalpPhotos, {
        body: { visit_id: visitId },
        fallbackMessage: 'We could not load your photos. Please try again.',
        signal,
      }),
  });
}

/** Multipart: one view's photo; it becomes that view's current photo (a retake replaces it). */
export function useUploadScalpPhoto(visitId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ view, file }: { view: ScalpView; file: File }) =>
      call(renewalsApi.uploadScalpPhoto, {
        body: { visit_id: String(visitId), view, fileToUpload: file },
        fallbackMessage: 'We could not upload your photo. Please try again.',
      }),
    onSuccess: (photo) =>
      queryClient.setQueryData(
        renewalKeys.scalpPhotos(visitId),
        (old: { photos: ScalpPhoto[] } | undefined) => ({
          photos: [...(old?.photos ?? []).filter((p) => p.view !== photo.view), photo],
        }),
      ),
  });
}
