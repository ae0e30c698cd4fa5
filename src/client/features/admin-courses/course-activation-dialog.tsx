import { Loader2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';

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
  const verb = deactivating ? 'deactivate' : 'activate';
  return (
    <AlertDialog
      open={course !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{deactivating ? 'Deactivate course' : 'Activate course'}</AlertDialogTitle>
          <AlertDialogDescription>Are you sure you want to {verb} this course?</AlertDialogDescription>
        </AlertDialogHeader>
        {course && (
          <div className="rounded-lg border border-border bg-muted px-4 py-3 text-sm">
            <p className="font-semibold text-navy-900">{course.title}</p>
            <p className="mt-1 text-muted-foreground">
              {deactivating
                ? 'It leaves the catalogue and the dashboards and takes no new requests. Approved learners keep their access.'
                : 'It appears in the catalogue and on learners’ dashboards, and learners can request it.'}
            </p>
          </div>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogPrimitive.Action asChild>
            <Button
              variant={deactivating ? 'destructive' : 'default'}
              disabled={pending}
              onClick={(event) => {
                // Keep the dialog open until the server has answered.
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending && <Loader2 className="animate-spin" aria-hidden />}
              {deactivating ? 'Yes, Deactivate' : 'Yes, Activate'}
            </Button>
          </AlertDialogPrimitive.Action>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
