// Package lower turns the generic code of a cell, which yaegi v0.16.1
// cannot run, into plain Go that it can, before package rewrite makes the
// cell's steps.
//
// Each instantiation the type checker records in a cell (types.Info's
// Instances: Map[int, string], or Map in Map(xs, f) with its type
// arguments inferred, Stack[T] inside a method) becomes the name of a
// concrete declaration of the instance, written from the generic
// declaration's own source with each type parameter replaced by its type
// argument: Mapᐸintˏstringᐳ, a name no cell writes, whose signs are
// letters, so that it is an identifier, and which messages give back as
// Map[int, string] (Names). A generic type's instance is declared with
// all its methods. An instance that refers to other instances asks for
// them in turn.
//
// The lowered cell is the checked file with these edits, each keeping
// every line where it was, and with the generic declarations taken away
// (the interpreter never sees them), then the instances' declarations
// after the cell's lines; it is type-checked again (check.Cell.Lowered),
// and a lowering that does not compile refuses the cell rather than run
// something else. Later cells are still checked against the declarations
// as the person wrote them (UserDecls), generic ones included; the
// session's instances are declarations of their own, which a cell
// declares again only if its text changed (a generic function declared
// anew).
//
// What is refused: an instance whose type arguments include a type
// declared inside a function, which no package-level declaration can
// name.
package lower
