import type { ReactNode } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import type { TCourse } from '../../../shared/schemas/course.ts';
import { CourseImage } from '@/components/course/course-image.tsx';
import { PageHero } from '@/components/layouts/page-hero.tsx';
import { CourseCardsSkeleton, ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { useCatalogue } from '@/features/catalogue/api/use-catalogue.ts';
import { formatRupees } from '@/lib/format.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const GRID = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

/** What a card offers under its price (the app gives enrolment's: Enroll Now, or where the learner stands). */
export type TCourseAction = (course: TCourse) => ReactNode;

function CatalogueCard({ course, action, eager }: { course: TCourse; action: TCourseAction; eager: boolean }) {
  const headingId = `course-${course.id}-title`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex h-full flex-col overflow-hidden rounded-xl border border-border bg-card shadow-card"
      >
        <CourseImage image={course.image} eager={eager} />
        <div className="flex flex-1 flex-col p-5">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{course.category}</Badge>
            <span className="text-xs font-medium text-muted-foreground">{course.duration}</span>
          </div>
          <h2 id={headingId} className="mt-3 line-clamp-2 text-lg leading-snug font-semibold text-navy-900">
            {course.title}
          </h2>
          <p className="mt-2 line-clamp-3 text-sm leading-relaxed text-muted-foreground">{course.description}</p>
          <div className="mt-auto pt-5">
            <p className="text-xl font-bold text-navy-900">
              <span className="sr-only">Price: </span>
              {formatRupees(course.price)}
            </p>
            {action(course)}
          </div>
        </div>
      </article>
    </li>
  );
}

/** /courses: the public catalogue of active courses, each card with `courseAction` under its price. */
export function CataloguePage({ courseAction }: { courseAction: TCourseAction }) {
  useDocumentTitle('Courses');
  const catalogue = useCatalogue();

  return (
    <>
      <PageHero eyebrow="Courses" title="Explore Our Courses">
        STCW and specialised training for seafarers, approved by the academy. Choose a course and request a place.
      </PageHero>

      <section aria-label="Courses" className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
        {catalogue.isPending ? (
          <CourseCardsSkeleton className={GRID} count={4} />
        ) : catalogue.isError ? (
          <LoadError
            title={MESSAGES.courses.visitorLoadFailed}
            onRetry={() => void catalogue.refetch()}
            retrying={catalogue.isFetching}
          />
        ) : catalogue.data.length === 0 ? (
          <ListEmpty
            message={MESSAGES.courses.empty}
            hint="New courses are published here as soon as the academy opens them. Please check back soon."
          />
        ) : (
          <ul className={GRID}>
            {catalogue.data.map((course, index) => (
              <CatalogueCard key={course.id} course={course} eager={index < 2} action={courseAction} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
