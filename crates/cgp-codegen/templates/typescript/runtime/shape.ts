// Part of the runtime of the generated package, copied as it is by `cargo xtask
// codegen` from crates/cgp-codegen/templates/typescript/runtime/: edit it there.
//
// What the table of shapes.ts says about each place of a message: the shapes
// the exact path (exact.ts) walks.

/** When an optional member is written. */
export type Emit = "always" | "absent" | "empty" | "default";

/** One member of an object or of a union branch. */
export interface MemberShape {
  readonly name: string;
  readonly required: boolean;
  readonly emit: Emit;
  readonly default: unknown;
  readonly shape: Shape;
}

/** One branch of a tagged union. */
export interface BranchShape {
  readonly tag: string;
  readonly members: readonly MemberShape[];
}

/** What one place accepts. */
export type Shape =
  | { readonly kind: "any" }
  | { readonly kind: "ref"; readonly name: string }
  | { readonly kind: "null" }
  | { readonly kind: "boolean" }
  | { readonly kind: "integer"; readonly min: string | null; readonly max: string | null; readonly big: boolean }
  | { readonly kind: "number"; readonly f32: boolean; readonly min: Limit | null; readonly max: Limit | null }
  | { readonly kind: "string"; readonly minLength: number | null; readonly maxLength: number | null }
  | { readonly kind: "const"; readonly value: unknown }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "vocabulary" }
  | { readonly kind: "array"; readonly items: Shape; readonly minItems: number | null; readonly maxItems: number | null }
  | { readonly kind: "object"; readonly members: readonly MemberShape[]; readonly closed: boolean }
  | { readonly kind: "union"; readonly tag: string; readonly index: boolean; readonly positional: boolean; readonly branches: readonly BranchShape[] }
  | { readonly kind: "nullable"; readonly inner: Shape }
  | { readonly kind: "excluding"; readonly inner: Shape; readonly values: readonly unknown[] };

/** One end of a number range. */
export interface Limit {
  readonly value: number;
  readonly exclusive: boolean;
}
