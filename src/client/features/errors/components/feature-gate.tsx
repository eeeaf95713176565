import type { ReactNode } from 'react';
import type { FeatureName } from '#shared/api.ts';
import { runtimeConfig } from '#client/lib/runtime-config.ts';
import { NoAccessPage } from '../pages/no-access-page.tsx';

const featureLabels: Record<FeatureName, string> = {
  login: 'Log in',
  onlineVisit: 'Online visit',
};

/** Spec §4: a disabled feature shows the no-access page instead of its screen. */
export function FeatureGate({ feature, children }: { feature: FeatureName; children: ReactNode }) {
  if (!runtimeConfig().features[feature]) return <NoAccessPage feature={featureLabels[feature]} />;
  return children;
}
