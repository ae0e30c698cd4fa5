import { CataloguePage } from '@/features/catalogue/catalogue-page.tsx';
import { useCatalogueEnrolment } from '@/features/enrolments/catalogue-enrolment.tsx';

/** /courses: the catalogue, whose cards offer enrolment (Enroll Now, or where the learner stands). */
export function CatalogueScreen() {
  const enrolment = useCatalogueEnrolment();
  return <CataloguePage courseAction={enrolment} />;
}
