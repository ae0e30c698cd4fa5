import { HardDriveDownload } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';

/** Marks a course wholly downloaded to this device for offline study. */
export function DownloadedBadge() {
  return (
    <Badge variant="outline" title="Kept on this device for offline study">
      <HardDriveDownload aria-hidden />
      Downloaded
    </Badge>
  );
}
