import { Route, Routes } from 'react-router-dom';
import { RequireAdmin } from '@/app/require-admin.tsx';
import { RoleGate } from '@/app/role-gate.tsx';
import { routesOf, screenOf } from '@/app/screens.tsx';
import { AdminLayout } from '@/components/layouts/admin-layout.tsx';
import { paths } from '@/config/paths.ts';
import type { TScreenRoute } from '@/config/routes.ts';

/** A pattern of the admin area as the area's own routes declare it: relative to the area. */
function inArea(pattern: string): string {
  return pattern.slice(paths.admin.root.length + 1);
}

/** The route of one admin entry of config/routes.ts (the overview is the area's index). */
function adminRoute(route: TScreenRoute) {
  const Screen = screenOf(route);
  // A member whose role lacks the screen's permission sees "Not part of your role" in its place.
  const element = (
    <RoleGate permission={route.permission}>
      <Screen />
    </RoleGate>
  );
  return route.pattern === paths.admin.root ? (
    <Route key={route.pattern} index element={element} />
  ) : (
    <Route key={route.pattern} path={inArea(route.pattern)} element={element} />
  );
}

/**
 * The administration area, one lazy chunk: its frame for administrators only (see RequireAdmin)
 * and the routes of the table's admin entries (the not-found page is the last, `*`).
 */
export function AdminArea() {
  return (
    <Routes>
      <Route
        element={
          <RequireAdmin>
            <AdminLayout />
          </RequireAdmin>
        }
      >
        {routesOf('admin').map(adminRoute)}
      </Route>
    </Routes>
  );
}
