import { OrdersDashboard } from '#client/features/operations/components/orders-dashboard.tsx';
import { ReviewQueue } from '#client/features/reviews/components/review-queue.tsx';
import { useStaff } from '../components/staff-layout.tsx';

/** /staff: operations staff land on the orders; providers on their review queue. */
export function StaffHomePage() {
  const staff = useStaff();
  if (staff.role === 'operations') return <OrdersDashboard />;
  return <ReviewQueue name={staff.name} />;
}
