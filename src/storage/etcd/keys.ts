// Where orch's keys live in etcd. orch's own keys begin /registry/, and with the default
// --etcd-prefix (/registry) they are stored exactly so, as Kubernetes stores them. A prefix
// ending in /registry moves the whole tree under what precedes it (/tenant-a/registry/pods/...);
// any other prefix is a root put in front of it (/custom/registry/pods/...).

const ownRoot = '/registry';

export class KeyMapper {
  /** what is put in front of every key */
  readonly root: string;
  constructor(prefix: string) {
    const p = prefix.replace(/\/+$/, '');
    this.root = p === '' ? '' : p.endsWith(ownRoot) ? p.slice(0, -ownRoot.length) : p;
  }
  toEtcd(key: string): Buffer {
    return Buffer.from(this.root + key);
  }
  fromEtcd(key: Buffer): string {
    return key.toString('utf8').slice(this.root.length);
  }
  /** where the revision of the last compaction is recorded, so that every server sharing the etcd knows it */
  get compactionKey(): Buffer {
    return this.toEtcd(`${ownRoot}/compact_rev_key`);
  }
}
