import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';

type CourseActivationDialogProps = {
  /** The course to switch; the dialog is open while one is set. */
  course: { title: string; isActive: boolean } | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** 'Are you sure you want to deactivate/activate this course?' (spec section 2), open until the server answers. */
export function CourseActivationDialog({ course, pending, onConfirm, onClose }: CourseActivationDialogProps) {
  const deactivating = course?.isActive ?? false;
  return (
    <ConfirmDialog
      open={course !== null}
      title={deactivating ? 'Deactivate course' : 'Activate course'}
      description={`Are you sure you want to ${deactivating ? 'deactivate' : 'activate'} this course?`}
      confirmLabel={deactivating ? 'Yes, Deactivate' : 'Yes, Activate'}
      destructive={deactivating}
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {course && (
        <>
          <p className="font-semibold text-navy-900">{course.title}</p>
          <p className="mt-1 text-muted-foreground">
            {deactivating
              ? 'It leaves the catalogue and the dashboards and takes no new requests. Approved learners keep their access.'
              : 'It appears in the catalogue and on learners’ dashboards, and learners can request it.'}
          </p>
        </>
      )}
    </ConfirmDialog>
  );
}
