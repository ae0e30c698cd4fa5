import { Mail, MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { BrandMark } from '@/components/brand/brand-mark.tsx';
import { FacebookIcon, InstagramIcon, LinkedinIcon } from '@/components/brand/social-icons.tsx';
import { mailtoHref, telHref } from '@/lib/contact-links.ts';
import { useSiteConfig } from '@/lib/site-config.ts';

const QUICK_LINKS = [
  { to: paths.home, label: 'Home' },
  { to: paths.courses, label: 'Courses' },
  { to: paths.about, label: 'About' },
  { to: paths.contact, label: 'Contact' },
  { to: paths.verify, label: 'Verify a certificate' },
] as const;

const linkClass =
  'rounded-sm text-navy-200 transition-colors outline-none hover:text-white focus-visible:ring-2 focus-visible:ring-sea-300';

export function SiteFooter() {
  const site = useSiteConfig();
  const year = new Date().getFullYear();
  const socials = [
    { href: site.social.facebook, label: `${site.name} on Facebook`, Icon: FacebookIcon },
    { href: site.social.linkedin, label: `${site.name} on LinkedIn`, Icon: LinkedinIcon },
    { href: site.social.instagram, label: `${site.name} on Instagram`, Icon: InstagramIcon },
  ];

  return (
    <footer className="bg-navy-950 text-navy-200">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_1fr_1.2fr]">
        <section aria-labelledby="footer-about">
          <div className="flex items-center gap-2.5">
            <BrandMark className="size-10 ring-1 ring-white/15 rounded-[14px]" />
            <h2 id="footer-about" className="text-lg font-bold text-white">
              {site.name}
            </h2>
          </div>
          <p className="mt-4 max-w-sm text-sm leading-relaxed">{site.tagline}</p>
          <ul className="mt-6 flex gap-3" aria-label="Social media">
            {socials.map(({ href, label, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  aria-label={label}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex size-10 items-center justify-center rounded-full bg-white/10 text-white transition-colors outline-none hover:bg-sea-700 focus-visible:ring-2 focus-visible:ring-sea-300"
                >
                  <Icon className="size-5" />
                </a>
              </li>
            ))}
          </ul>
        </section>

        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="text-sm font-semibold tracking-wider text-white uppercase">
            Quick links
          </h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {QUICK_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="text-sm font-semibold tracking-wider text-white uppercase">
            Contact us
          </h2>
          <address className="mt-4 space-y-3 text-sm not-italic">
            <p className="flex items-start gap-2.5">
              <Mail className="mt-0.5 size-4 shrink-0 text-sea-300" aria-hidden />
              <a href={mailtoHref(site.email)} className={`${linkClass} break-all`}>
                {site.email}
              </a>
            </p>
            <p className="flex items-start gap-2.5">
              <Phone className="mt-0.5 size-4 shrink-0 text-sea-300" aria-hidden />
              <a href={telHref(site.phone)} className={linkClass}>
                {site.phone}
              </a>
            </p>
            <p className="flex items-start gap-2.5">
              <MapPin className="mt-0.5 size-4 shrink-0 text-sea-300" aria-hidden />
              <span>{site.city}</span>
            </p>
          </address>
        </section>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-navy-300 sm:px-6">
          © {year} {site.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
