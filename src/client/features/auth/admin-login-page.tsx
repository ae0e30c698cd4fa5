import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { AuthShell, authLinkClass } from '@/features/auth/auth-shell.tsx';
import { LoginForm } from '@/features/auth/login-form.tsx';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /backend: the administrators' login (spec section 2). Only administrators get in. */
export function AdminLoginPage() {
  const site = useSiteConfig();
  useDocumentTitle('Administrator login');
  return (
    <AuthShell
      icon={ShieldCheck}
      title={`Login to ${site.name}`}
      description="Administrator login for the academy's staff."
      footer={
        <>
          Not staff?{' '}
          <Link to={paths.login} className={authLinkClass}>
            Learner login
          </Link>
        </>
      }
    >
      <LoginForm audience="admin" />
    </AuthShell>
  );
}
