import {
  Award,
  BadgeCheck,
  BookOpen,
  ClipboardCheck,
  FileBadge,
  type LucideIcon,
  MapPin,
  PlayCircle,
  ShieldCheck,
  UserRoundCheck,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const OFFERINGS: { title: string; text: string; icon: LucideIcon }[] = [
  {
    title: 'Courses for seafarers',
    text: 'Safety, handling and specialist courses for deck, engine and catering crews, taught by experienced instructors.',
    icon: BookOpen,
  },
  {
    title: 'Training videos',
    text: 'Each course comes with training videos you watch in order, online, at your own pace between voyages.',
    icon: PlayCircle,
  },
  {
    title: 'Tests',
    text: 'A multiple-choice test closes each course once the training is complete, so you know you are ready.',
    icon: ClipboardCheck,
  },
  {
    title: 'Certificates',
    text: 'Pass the test and your certificate is issued to your profile, ready to show to an employer.',
    icon: FileBadge,
  },
];

const STEPS: { title: string; text: string; icon: LucideIcon }[] = [
  { title: 'Register', text: 'Create your account and verify it with the one-time password we e-mail you.', icon: UserRoundCheck },
  { title: 'Complete your profile', text: 'Add your passport, INDOS and CDC details; our staff approve your account.', icon: ShieldCheck },
  { title: 'Enrol and train', text: 'Request a course; once approved, watch its training videos in order.', icon: PlayCircle },
  { title: 'Test and certify', text: 'Take the test online and receive your certificate when you pass.', icon: Award },
];

export function AboutPage() {
  const site = useSiteConfig();
  useDocumentTitle('About');

  return (
    <>
      <PageHero eyebrow="About us" title={`About ${site.name}`}>
        {site.tagline}
      </PageHero>

      <section aria-labelledby="mission-title" className="mx-auto grid w-full max-w-6xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[1.3fr_1fr]">
        <div>
          <h2 id="mission-title" className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">
            Our mission
          </h2>
          <div className="mt-5 space-y-4 text-base leading-relaxed text-navy-800">
            <p>
              {site.name} is a preferred learning and training management platform for seafarers and maritime
              trainees. From our base in {site.city}, we help crews gain and renew the qualifications their work at sea
              depends on.
            </p>
            <p>
              We bring expert instructors, certified courses and flexible study together in one place: learn in the
              classroom or online, follow your training step by step and keep your documents, results and
              certificates in a single profile.
            </p>
          </div>
        </div>
        <Card tone="sea" className="self-start">
          <CardContent className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-sea-700 text-white">
              <BadgeCheck className="size-6" aria-hidden />
            </span>
            <div>
              <h2 className="font-semibold text-navy-900">Recognised certification</h2>
              <p className="mt-1.5 text-sm leading-relaxed text-navy-800">
                Our courses are certified: recognised by the national shipping directorate and internationally.
              </p>
              <p className="mt-3 flex items-center gap-1.5 text-sm text-muted-foreground">
                <MapPin className="size-4" aria-hidden />
                {site.city}
              </p>
            </div>
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="offer-title" className="bg-navy-50/70">
        <div className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="offer-title" className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">
            What we offer
          </h2>
          <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {OFFERINGS.map(({ title, text, icon: Icon }) => (
              <li key={title} className="rounded-xl border border-border bg-card p-6 shadow-card">
                <Icon className="size-6 text-sea-700" aria-hidden />
                <h3 className="mt-4 font-semibold text-navy-900">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="steps-title" className="mx-auto w-full max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="steps-title" className="text-2xl font-bold tracking-tight text-navy-900 sm:text-3xl">
          How it works
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-4">
          {STEPS.map(({ title, text, icon: Icon }, index) => (
            <li key={title} className="relative">
              <div className="flex items-center gap-3">
                <span className="flex size-9 items-center justify-center rounded-full bg-navy-900 text-sm font-bold text-white">
                  {index + 1}
                </span>
                <Icon className="size-5 text-sea-700" aria-hidden />
              </div>
              <h3 className="mt-4 font-semibold text-navy-900">{title}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-12 flex flex-wrap gap-3">
          <Button asChild size="lg">
            <Link to={paths.courses}>Browse Courses</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.contact}>Contact us</Link>
          </Button>
        </div>
      </section>
    </>
  );
}
