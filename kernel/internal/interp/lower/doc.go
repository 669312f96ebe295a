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
// them in turn (instance.go).
//
// The standard library's generic packages (StdPackages: cmp, iter, maps,
// slices), and the generic names of the others and those newer than
// yaegi's copy of them (errors.AsType, strings.Lines), are written the
// same way from the library's own source, as the Go toolchain ships it
// (std.go): a Std reads and type-checks a package's files once, on first
// use, from $GOROOT/src on a server or from the zips a browser's engine
// fetches; what they use of their package that the interpreter has
// compiled in stays a call of it, and the address of
// uintptr(unsafe.Pointer(p)), which the interpreter lacks, becomes
// reflect's address. In the library's source as in cells, calls of
// unsafe.Sizeof, Alignof and Offsetof become the constants the compiler
// computes (unsafe.go); a cell's other uses of package unsafe are
// refused.
//
// On a server, the packages of modules that the interpreter does not
// have compiled in (GoNB's cache, golang.org/x/exp/constraints, or one
// the go command fetches) are written from their source the same way
// (modules.go), every declaration a cell uses; a package's init
// functions are written too, and a variable whose value runs them, in
// the first cell that uses the package (init.go).
//
// A written instance is what Go's compiler would compile for concrete
// types, not always what it accepts in concrete code: of a type switch's
// cases that coincide once instantiated, the first stays; an assertion
// the instance's interface rules out asserts from any; a type declared
// inside a function that an instance takes as a type argument is
// declared at package level under a name of its own (local.go); a field
// embedding an instance is named by the instance's name.
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
// anew). A panic inside an instance, or a refusal of its code, names the
// instance and the line that asked for it (Lowered).
//
// What is refused: an instance that uses what has no Go source (the
// runtime's: iter.Pull, maps.Clone) or what the interpreter lacks
// (unsafe.Pointer: atomic.Pointer[T]), and a type declared inside a
// generic function as a type argument.
package lower
