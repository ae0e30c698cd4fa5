import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MESSAGES } from '../../../shared/messages.ts';
import { AppError } from '../errors.ts';
import { FILE_KINDS } from './file-kinds.ts';
import { storeImageClean } from './images.ts';
import { describeIssues, refuseNulCharacters } from '../validation.ts';
import type { FileStorage, TFileArea, TFileRules, TStoredFile } from './storage.ts';

export type TUploadField = TFileRules & {
  area: TFileArea;
  multiple?: boolean;
  /** Pictures are stored re-encoded, without metadata or trailing bytes (documents stay as sent). */
  cleanImages?: boolean;
};

/** A submitted form: its text fields as sent and the files stored from it, by field. */
export type TUploadedForm<F extends string> = {
  fields: Record<string, string>;
  files: Partial<Record<F, TStoredFile[]>>;
};

export type TMultipartResult<F extends string> = TUploadedForm<F> & {
  /** Removes every file this request stored: call it when the change does not commit. */
  discard(): Promise<void>;
};

/** The first file stored from a field, if one was sent. */
export function firstFile<F extends string>(form: Pick<TUploadedForm<F>, 'files'>, field: F): TStoredFile | undefined {
  return form.files[field]?.[0];
}

/**
 * The one way a feature takes an upload: reads the request's multipart body under `rules` (see
 * readMultipart) and hands the form to `save`. When `save` throws (refused fields, a conflict, a
 * failed write) every file the request stored is removed, so a refused upload leaves no file and
 * no row. Errors name the field they concern (`fields`), whatever the feature.
 */
export async function withUpload<F extends string, T>(
  request: FastifyRequest,
  storage: FileStorage,
  rules: Record<F, TUploadField>,
  save: (form: TUploadedForm<F>) => Promise<T>,
  options: { maxFiles?: number } = {},
): Promise<T> {
  const upload = await readMultipart(request, storage, rules, options);
  try {
    return await save({ fields: upload.fields, files: upload.files });
  } catch (error) {
    await upload.discard();
    throw error;
  }
}

/**
 * withUpload for a form whose text fields one schema reads: the schema the route's document shows
 * (rest-schema.ts multipartForm). A text field under a file field's name (an edit form sending
 * its current file's name) is not one of them. Refused fields are a 400 naming each field, as a
 * route schema's refusal is.
 */
export async function withUploadForm<F extends string, S extends z.ZodType, T>(
  request: FastifyRequest,
  storage: FileStorage,
  rules: Record<F, TUploadField>,
  fields: S,
  save: (form: { fields: z.output<S>; files: TUploadedForm<F>['files'] }) => Promise<T>,
): Promise<T> {
  return withUpload(request, storage, rules, async (form) => {
    const text = Object.fromEntries(Object.entries(form.fields).filter(([name]) => !(name in rules)));
    const result = fields.safeParse(text);
    if (!result.success) {
      const { message, fields: problems } = describeIssues(result.error.issues);
      throw new AppError('BAD_REQUEST', message, { fields: problems });
    }
    return save({ fields: result.data, files: form.files });
  });
}

/** What busboy says of a body that is not well-formed multipart. */
const MALFORMED_BODY = /^(Multipart: |Unexpected end of (multipart|form) data|Malformed part header|Part terminated early)/;

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Reads a multipart request: text fields into `fields`, files streamed into storage under the
 * rules of their field. Anything wrong (an unknown file field, a type or size refused, a broken
 * stream) removes what was already stored and throws, so a refused upload leaves no file.
 */
export async function readMultipart<F extends string>(
  request: FastifyRequest,
  storage: FileStorage,
  uploads: Record<F, TUploadField>,
  options: { maxFiles?: number } = {},
): Promise<TMultipartResult<F>> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.common.unsupportedMediaType);
  }
  const stored: TStoredFile[] = [];
  const discard = async () => {
    await Promise.all(stored.map((file) => storage.remove(file.area, file.name)));
  };
  const fields: Record<string, string> = {};
  const files: Partial<Record<F, TStoredFile[]>> = {};
  const largest = Math.max(...Object.values<TUploadField>(uploads).map((rule) => rule.maxBytes), 1);

  try {
    const parts = request.parts({
      limits: {
        // One byte over the largest allowed file lets storage see and refuse an oversized one.
        fileSize: largest + 1,
        files: options.maxFiles ?? Object.keys(uploads).length,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') continue;
        if (part.valueTruncated) throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.common.payloadTooLarge);
        refuseNulCharacters({ [part.fieldname]: part.value });
        fields[part.fieldname] = part.value;
        continue;
      }
      const rule = (uploads as Record<string, TUploadField | undefined>)[part.fieldname];
      if (!rule) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', MESSAGES.files.unexpectedField);
      }
      const list = (files[part.fieldname as F] ??= []);
      if (list.length > 0 && !rule.multiple) {
        part.file.resume();
        throw new AppError('BAD_REQUEST', MESSAGES.files.unexpectedField);
      }
      // A file input left empty arrives as a part with no name and no bytes: it is no file.
      if (!part.filename) {
        part.file.resume();
        continue;
      }
      const saved = await storage.save(rule.area, part.file, rule).catch((error: unknown) => {
        throw namingField(error, part.fieldname);
      });
      const file =
        rule.cleanImages && FILE_KINDS[saved.kind].image
          ? await storeImageClean(storage, saved, rule.wrongType).catch((error: unknown) => {
              throw namingField(error, part.fieldname);
            })
          : saved;
      const named = { ...file, originalName: part.filename };
      stored.push(named);
      list.push(named);
    }
  } catch (error) {
    await discard();
    throw translateMultipartError(error);
  }
  return { fields, files, discard };
}

/** A refused file says which field it came from, so a form can show the message beside it. */
function namingField(error: unknown, field: string): unknown {
  if (!(error instanceof AppError) || error.fields) return error;
  return new AppError(error.code, error.message, { fields: { [field]: error.message }, cause: error });
}

function translateMultipartError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', MESSAGES.files.tooLarge);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', MESSAGES.common.payloadTooLarge);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.common.unsupportedMediaType);
    case 'FST_PROTO_VIOLATION':
      return new AppError('BAD_REQUEST', MESSAGES.common.badRequest);
    default:
      // The parser's own complaints about the body (no boundary, cut off, broken headers) are the
      // client's; anything else (the disk, say) stays a server error.
      return error instanceof Error && !(error instanceof AppError) && MALFORMED_BODY.test(error.message)
        ? new AppError('BAD_REQUEST', MESSAGES.files.malformed, { cause: error })
        : error;
  }
}
