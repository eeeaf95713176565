import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { useVisitId } from '../visit-state.ts';
import { useVisitContext } from './visit-layout.tsx';

/** A visit screen needs the visit's id; without one, the start asks the server for it. */
export function WithVisit({ children }: { children: (visitId: number) => ReactNode }) {
  const { category } = useVisitContext();
  const visitId = useVisitId(category);
  if (visitId === null) return <Navigate to={paths.visit(category)} replace />;
  return children(visitId);
}
