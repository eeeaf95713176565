// Must fail lint: components/ sits below every feature and imports none, not even lazily.
// Linted as src/client/components/ui/.
import { OrdersPage } from '#client/features/orders/pages/orders-page.tsx';

export const loadCart = () => import('#client/features/cart/components/cart-button.tsx');

export function Orders() {
  return <OrdersPage />;
}
