/*
 * The screens with the personal details form (its title and country selects, the password
 * strength meter), apart from the other account screens, so /login does not carry their code.
 */
export { AdminSetupPage } from '@/features/auth/admin-setup-page.tsx';
export { RegistrationPage } from '@/features/auth/registration-page.tsx';
