// The part of fs-native-extensions (no types of its own) that file-lock.ts uses.
declare module "fs-native-extensions" {
  /** An exclusive lock on the whole file, without waiting: false when another descriptor holds it. */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
  /** Releases a lock this descriptor holds (closing the descriptor does too). */
  export function unlock(fd: number, offset?: number, length?: number): void;
}
