/**
 * What `canvas().add()` returns: a component's id, its component_name and (as a type only) the
 * output names a reference to it may use. Pass it to `ref()`, `edge()` and `{ parent }`.
 */
export interface NodeHandle<Id extends string = string, Component extends string = string, Output extends string = string> {
  readonly id: Id;
  readonly component: Component;
  /** The canvas that added it: a handle of another canvas is refused by edge() and build(). */
  readonly canvas: object;
  /** Type only: the output names `ref()` accepts for this component (string when undeclared). */
  readonly outputs?: Output;
}

/** The output names a handle declares. */
export type OutputOf<H> = H extends NodeHandle<string, string, infer O> ? O : never;
