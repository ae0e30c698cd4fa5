import { ArrowRight, type LucideIcon, Mail, MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { FacebookIcon, InstagramIcon, LinkedinIcon } from '@/components/brand/social-icons.tsx';
import { Button } from '@/components/ui/button.tsx';
import { mailtoHref, telHref } from '@/lib/contact-links.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useSiteConfig } from '@/lib/site-config.ts';

type ContactChannel = { title: string; text: string; value: string; href?: string; icon: LucideIcon };

export function ContactPage() {
  const site = useSiteConfig();
  useDocumentTitle('Contact');

  const channels: ContactChannel[] = [
    {
      title: 'E-mail',
      text: 'Questions about courses, enrolment or certificates.',
      value: site.email,
      href: mailtoHref(site.email),
      icon: Mail,
    },
    { title: 'Phone', text: 'Talk to our training office.', value: site.phone, href: telHref(site.phone), icon: Phone },
    { title: 'Visit us', text: 'Classroom training at our academy.', value: site.city, icon: MapPin },
  ];
  const socials = [
    { href: site.social.facebook, label: 'Facebook', Icon: FacebookIcon },
    { href: site.social.linkedin, label: 'LinkedIn', Icon: LinkedinIcon },
    { href: site.social.instagram, label: 'Instagram', Icon: InstagramIcon },
  ];

  return (
    <>
      <PageHero eyebrow="Get in touch" title="Contact">
        We are happy to help you choose a course, plan your training or answer questions about your certificate.
      </PageHero>

      <section aria-label="Ways to reach us" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
        <ul className="grid gap-5 md:grid-cols-3">
          {channels.map(({ title, text, value, href, icon: Icon }) => (
            <li key={title} className="flex flex-col rounded-2xl border border-border bg-card p-7 shadow-card">
              <span className="flex size-12 items-center justify-center rounded-xl bg-sea-50 text-sea-700 ring-1 ring-sea-100">
                <Icon className="size-6" aria-hidden />
              </span>
              <h2 className="mt-5 text-lg font-semibold text-navy-900">{title}</h2>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              {href ? (
                <a
                  href={href}
                  className="mt-4 self-start rounded-sm font-semibold break-all text-sea-800 underline decoration-sea-300 underline-offset-4 outline-none hover:decoration-sea-700 focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {value}
                </a>
              ) : (
                <p className="mt-4 font-semibold text-navy-900">{value}</p>
              )}
            </li>
          ))}
        </ul>

        <div className="mt-12 flex flex-col gap-6 rounded-2xl bg-navy-50 p-7 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-lg font-semibold text-navy-900">Follow {site.name}</h2>
            <ul className="mt-3 flex gap-3">
              {socials.map(({ href, label, Icon }) => (
                <li key={label}>
                  <a
                    href={href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${site.name} on ${label}`}
                    className="flex size-10 items-center justify-center rounded-full bg-white text-navy-800 ring-1 ring-border transition-colors outline-none hover:bg-navy-900 hover:text-white focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <Icon className="size-5" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <Button asChild size="lg">
            <Link to="/courses">
              Browse Courses
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </section>
    </>
  );
}
