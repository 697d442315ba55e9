// A set of field paths, as managedFields record them. Path elements are strings in the
// FieldsV1 spelling: `f:<field>`, `k:<json of key fields>` (a list-map item), `v:<json value>`
// (a set item). A node is a member itself (`.` in FieldsV1, or an empty object for a leaf) and/or
// has children; FieldsV1 is this tree as JSON.

export type PathElement = string;
export type Path = readonly PathElement[];

export class FieldSet {
  /** this node's path is in the set */
  member = false;
  readonly children = new Map<PathElement, FieldSet>();

  static fromPaths(paths: Iterable<Path>): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** FieldsV1 JSON (the `fieldsV1` of a managedFields entry) as a set */
  static fromFieldsV1(v: unknown): FieldSet {
    const s = new FieldSet();
    const walk = (node: FieldSet, obj: unknown): void => {
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return;
      for (const [k, child] of Object.entries(obj as Record<string, unknown>)) {
        if (k === '.') { node.member = true; continue; }
        const c = node.child(k);
        const keys = child && typeof child === 'object' ? Object.keys(child) : [];
        if (keys.length === 0) c.member = true;
        walk(c, child);
      }
    };
    walk(s, v);
    return s;
  }

  child(pe: PathElement): FieldSet {
    let c = this.children.get(pe);
    if (!c) this.children.set(pe, c = new FieldSet());
    return c;
  }

  insert(path: Path): void {
    let n: FieldSet = this;
    for (const pe of path) n = n.child(pe);
    n.member = true;
  }

  has(path: Path): boolean {
    let n: FieldSet | undefined = this;
    for (const pe of path) { n = n.children.get(pe); if (!n) return false; }
    return n.member;
  }

  get empty(): boolean {
    return !this.member && [...this.children.values()].every(c => c.empty);
  }

  /** every member path, parents before children, children in sorted order */
  *paths(prefix: PathElement[] = []): Generator<PathElement[]> {
    if (this.member && prefix.length) yield [...prefix];
    for (const k of [...this.children.keys()].sort()) yield* this.children.get(k)!.paths([...prefix, k]);
  }

  union(other: FieldSet): FieldSet {
    const out = this.clone();
    for (const p of other.paths()) out.insert(p);
    return out;
  }

  difference(other: FieldSet): FieldSet {
    return FieldSet.fromPaths([...this.paths()].filter(p => !other.has(p)));
  }

  intersection(other: FieldSet): FieldSet {
    return FieldSet.fromPaths([...this.paths()].filter(p => other.has(p)));
  }

  clone(): FieldSet {
    const c = FieldSet.fromPaths(this.paths());
    c.member = this.member;
    return c;
  }

  /** FieldsV1 JSON, keys sorted as Kubernetes writes them */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const hasChildren = [...this.children.values()].some(c => !c.empty);
    if (this.member && hasChildren) out['.'] = {};
    for (const k of [...this.children.keys()].sort()) {
      const c = this.children.get(k)!;
      if (!c.empty) out[k] = c.toFieldsV1();
    }
    return out;
  }
}

/** `.spec.containers[name="web"].image`: how conflicts name a path */
export function pathString(path: Path): string {
  let s = '';
  for (const pe of path) {
    if (pe.startsWith('f:')) s += `.${pe.slice(2)}`;
    else if (pe.startsWith('k:')) {
      const key = JSON.parse(pe.slice(2)) as Record<string, unknown>;
      s += `[${Object.entries(key).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    } else if (pe.startsWith('v:')) s += `[=${pe.slice(2)}]`;
    else if (pe.startsWith('i:')) s += `[${pe.slice(2)}]`;
  }
  return s;
}
