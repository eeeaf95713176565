import type { RouteObject } from 'react-router';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { PublicOnlyRoute, RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { AccountsPage } from '#client/features/accounts/pages/accounts-page.tsx';
import { DashboardPage } from '#client/features/accounts/pages/dashboard-page.tsx';
import { EditPaymentMethodPage } from '#client/features/accounts/pages/edit-payment-method-page.tsx';
import { LoginPage } from '#client/features/auth/pages/login-page.tsx';
import { LogoutPage } from '#client/features/auth/pages/logout-page.tsx';

/** The account routes as router.tsx nests them, without lazy loading, for component tests. */
export const memberRoutes: RouteObject[] = [
  {
    element: <PublicOnlyRoute />,
    children: [{ path: '/login', element: <LoginPage /> }],
  },
  { path: '/logout', element: <LogoutPage /> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/accounts', element: <AccountsPage /> },
          { path: '/accounts/editPaymentMethod', element: <EditPaymentMethodPage /> },
        ],
      },
    ],
  },
];
