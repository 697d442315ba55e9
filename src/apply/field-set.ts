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

  // every operation here keeps the invariant that no child is empty, so this is one check
  get empty(): boolean {
    return !this.member && this.children.size === 0;
  }

  /** every member path, parents before children, children in sorted order */
  paths(): PathElement[][] {
    const out: PathElement[][] = [];
    const prefix: PathElement[] = [];
    const walk = (n: FieldSet): void => {
      if (n.member && prefix.length) out.push([...prefix]);
      for (const k of [...n.children.keys()].sort()) {
        prefix.push(k);
        walk(n.children.get(k)!);
        prefix.pop();
      }
    };
    walk(this);
    return out;
  }

  union(other: FieldSet): FieldSet {
    const out = this.clone();
    const add = (into: FieldSet, from: FieldSet): void => {
      if (from.member) into.member = true;
      for (const [k, c] of from.children) add(into.child(k), c);
    };
    add(out, other);
    return out;
  }

  difference(other: FieldSet): FieldSet {
    const diff = (a: FieldSet, b: FieldSet | undefined): FieldSet => {
      const out = new FieldSet();
      out.member = a.member && !b?.member;
      for (const [k, c] of a.children) {
        const d = diff(c, b?.children.get(k));
        if (!d.empty) out.children.set(k, d);
      }
      return out;
    };
    return diff(this, other);
  }

  intersection(other: FieldSet): FieldSet {
    const both = (a: FieldSet, b: FieldSet): FieldSet => {
      const out = new FieldSet();
      out.member = a.member && b.member;
      for (const [k, c] of a.children) {
        const bc = b.children.get(k);
        if (!bc) continue;
        const d = both(c, bc);
        if (!d.empty) out.children.set(k, d);
      }
      return out;
    };
    return both(this, other);
  }

  clone(): FieldSet {
    const c = new FieldSet();
    c.member = this.member;
    for (const [k, v] of this.children) c.children.set(k, v.clone());
    return c;
  }

  /** FieldsV1 JSON, keys sorted as Kubernetes writes them */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const keys = [...this.children.keys()].sort();
    if (this.member && keys.length) out['.'] = {};
    for (const k of keys) out[k] = this.children.get(k)!.toFieldsV1();
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
