// The sandbox ("pause") image of an embedded containerd, made here because no registry is
// reachable: one static program that sleeps until it is killed. A sandbox's first process only
// holds the pod's namespaces open; containerd stops it with SIGKILL. The program is a minimal
// ELF executable written out byte by byte: a loop around the pause system call.

import { ociArchive } from './oci-archive.ts';

export const pauseImage = 'orch.local/pause:1';

const base = 0x400000;
const headers = 64 + 56;

/** a 64-bit little-endian ELF executable for `machine` whose whole code is `code`, loaded at 0x400000 */
function elf(machine: number, code: Buffer): Buffer {
  const size = headers + code.length;
  const b = Buffer.alloc(size);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = 2; // 64-bit
  b[5] = 1; // little-endian
  b[6] = 1; // ELF version
  b.writeUInt16LE(2, 16); // an executable
  b.writeUInt16LE(machine, 18);
  b.writeUInt32LE(1, 20);
  b.writeBigUInt64LE(BigInt(base + headers), 24); // entry point: the code after the headers
  b.writeBigUInt64LE(64n, 32); // program headers follow the ELF header
  b.writeUInt16LE(64, 52);
  b.writeUInt16LE(56, 54);
  b.writeUInt16LE(1, 56); // one program header
  // one loadable segment, readable and executable, mapping the whole file
  b.writeUInt32LE(1, 64);
  b.writeUInt32LE(5, 68);
  b.writeBigUInt64LE(0n, 72);
  b.writeBigUInt64LE(BigInt(base), 80);
  b.writeBigUInt64LE(BigInt(base), 88);
  b.writeBigUInt64LE(BigInt(size), 96);
  b.writeBigUInt64LE(BigInt(size), 104);
  b.writeBigUInt64LE(0x1000n, 112);
  code.copy(b, headers);
  return b;
}

/** the program for a Node.js architecture name, when orch has one for it */
export function pauseProgram(arch: string): Buffer | undefined {
  // mov eax, 34 (pause); syscall; jmp back to the mov
  if (arch === 'x64') return elf(0x3e, Buffer.from([0xb8, 0x22, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xeb, 0xf7]));
  return undefined;
}

/** the pause image as an OCI archive for this machine, or undefined where orch has no program for it */
export function pauseImageArchive(arch = process.arch): Buffer | undefined {
  const program = pauseProgram(arch);
  if (!program) return undefined;
  return ociArchive({ name: pauseImage, files: [{ path: 'pause', data: program, mode: 0o755 }], entrypoint: ['/pause'], architecture: arch === 'x64' ? 'amd64' : arch });
}
