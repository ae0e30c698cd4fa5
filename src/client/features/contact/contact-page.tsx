import { ArrowRight, type LucideIcon, Mail, MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { FacebookIcon, InstagramIcon, LinkedinIcon } from '@/components/brand/social-icons.tsx';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ContactForm } from '@/features/contact/contact-form.tsx';
import { mailtoHref, telHref } from '@/lib/contact-links.ts';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

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
        We are happy to help you choose a course, plan your training or answer questions about your certificate. Write to us below, or call the training office.
      </PageHero>

      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-labelledby="contact-ways-heading">
          <h2 id="contact-ways-heading" className="text-xl font-bold tracking-tight text-navy-900">
            Ways to reach us
          </h2>
          <ul className="mt-5 grid gap-4">
            {channels.map(({ title, text, value, href, icon: Icon }) => (
              <li key={title} className="flex gap-4 rounded-2xl border border-border bg-card p-5 shadow-card">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-sea-50 text-sea-700 ring-1 ring-sea-100">
                  <Icon className="size-5" aria-hidden />
                </span>
                <div className="min-w-0">
                  <h3 className="font-semibold text-navy-900">{title}</h3>
                  <p className="text-sm text-muted-foreground">{text}</p>
                  {href ? (
                    <a
                      href={href}
                      className="mt-2 inline-block rounded-sm font-semibold break-all text-sea-800 underline decoration-sea-300 underline-offset-4 outline-none hover:decoration-sea-700 focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {value}
                    </a>
                  ) : (
                    <p className="mt-2 font-semibold text-navy-900">{value}</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section
          aria-labelledby="contact-form-heading"
          className="rounded-2xl border border-border bg-card p-6 shadow-card sm:p-8"
        >
          <h2 id="contact-form-heading" className="text-xl font-bold tracking-tight text-navy-900">
            Send us a message
          </h2>
          <p className="mt-1 mb-6 text-sm text-muted-foreground">
            The training office reads every message and replies by e-mail.
          </p>
          <ContactForm />
        </section>
      </div>

      <section aria-label={`Follow ${site.name}`} className="mx-auto w-full max-w-6xl px-4 pb-16 sm:px-6">
        <div className="flex flex-col gap-6 rounded-2xl bg-navy-50 p-7 sm:flex-row sm:items-center sm:justify-between">
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
            <Link to={paths.courses}>
              Browse Courses
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </section>
    </>
  );
}
