import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { adminMenuFor } from '@/components/layouts/admin-menu.ts';
import { useAdminDocumentTitle } from '@/components/layouts/admin-page.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { AdminFigures } from '@/features/admin-overview/admin-figures.tsx';
import { useStaffRole } from '@/lib/staff-role.ts';

/** The admin area's landing page: what waits for the administrators, how the tests go, and each menu group with links to its pages. */
export function AdminOverviewPage() {
  useAdminDocumentTitle();
  // The groups with a screen the member's role may use.
  const menu = adminMenuFor(useStaffRole().staffRole);

  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">Overview</h1>
      <p className="mt-2 text-muted-foreground">What is waiting for you, and how the tests are going.</p>
      <div className="mt-6">
        <AdminFigures />
      </div>
      <h2 className="mt-10 text-xl font-semibold text-navy-900">Manage</h2>
      <ul className="mt-4 grid gap-5 md:grid-cols-2">
        {menu.map((group) => (
          <li key={group.title}>
            <Card className="h-full">
              <CardHeader>
                <div className="flex items-start gap-4">
                  <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-navy-900 text-sea-300">
                    <group.icon className="size-5" aria-hidden />
                  </span>
                  <div>
                    <CardTitle asChild>
                      <h3>{group.title}</h3>
                    </CardTitle>
                    <CardDescription className="mt-1">{group.description}</CardDescription>
                  </div>
                </div>
              </CardHeader>
              <CardContent className="pt-4">
                <ul className="divide-y divide-border rounded-lg border border-border">
                  {group.items.map((item) => (
                    <li key={item.to}>
                      <Link
                        to={item.to}
                        className="flex items-center gap-3 px-3 py-2.5 text-sm font-medium text-navy-800 transition-colors outline-none first:rounded-t-lg last:rounded-b-lg hover:bg-sea-50 hover:text-sea-800 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
                      >
                        <item.icon className="size-4 shrink-0 text-sea-700" aria-hidden />
                        {item.label}
                        <ChevronRight className="ml-auto size-4 text-muted-foreground" aria-hidden />
                      </Link>
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
