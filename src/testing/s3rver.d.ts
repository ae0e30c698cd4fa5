declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  type TS3rverOptions = {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  };

  export default class S3rver {
    constructor(options: TS3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
