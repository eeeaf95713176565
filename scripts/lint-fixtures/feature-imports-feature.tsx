// Linted as src/client/features/catalog/components/: the catalogue may import the cart (a product
// adds itself to it, an allowed pair) but not the orders feature.
import { useCart } from '#client/features/cart/use-cart.ts';
import { OrdersPage } from '#client/features/orders/pages/orders-page.tsx';

export function CartAndOrders() {
  useCart();
  return <OrdersPage />;
}
