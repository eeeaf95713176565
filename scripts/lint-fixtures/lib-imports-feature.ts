// Must fail lint: lib/ sits below every feature and imports none. Linted as src/client/lib/.
import { cartKey } from '#client/features/cart/cart.api.ts';

export const firstKey = cartKey[0];
