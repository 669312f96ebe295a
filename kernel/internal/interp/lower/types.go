package lower

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"
)

// subst returns t with the type parameters env maps replaced by their
// types: the type arguments of an instantiation inside a generic body,
// made concrete by the instance being written.
func subst(t types.Type, env map[*types.TypeParam]types.Type) types.Type {
	if len(env) == 0 {
		return t
	}
	switch t := t.(type) {
	case *types.TypeParam:
		if c, ok := env[t]; ok {
			return c
		}
		return t
	case *types.Alias:
		return subst(types.Unalias(t), env)
	case *types.Pointer:
		return types.NewPointer(subst(t.Elem(), env))
	case *types.Slice:
		return types.NewSlice(subst(t.Elem(), env))
	case *types.Array:
		return types.NewArray(subst(t.Elem(), env), t.Len())
	case *types.Map:
		return types.NewMap(subst(t.Key(), env), subst(t.Elem(), env))
	case *types.Chan:
		return types.NewChan(t.Dir(), subst(t.Elem(), env))
	case *types.Signature:
		return types.NewSignatureType(nil, nil, nil, substTuple(t.Params(), env), substTuple(t.Results(), env), t.Variadic())
	case *types.Struct:
		fields := make([]*types.Var, t.NumFields())
		tags := make([]string, t.NumFields())
		for i := range fields {
			f := t.Field(i)
			fields[i] = types.NewField(f.Pos(), f.Pkg(), f.Name(), subst(f.Type(), env), f.Embedded())
			tags[i] = t.Tag(i)
		}
		return types.NewStruct(fields, tags)
	case *types.Interface:
		methods := make([]*types.Func, t.NumExplicitMethods())
		for i := range methods {
			m := t.ExplicitMethod(i)
			methods[i] = types.NewFunc(m.Pos(), m.Pkg(), m.Name(), subst(m.Type(), env).(*types.Signature))
		}
		embedded := make([]types.Type, t.NumEmbeddeds())
		for i := range embedded {
			embedded[i] = subst(t.EmbeddedType(i), env)
		}
		return types.NewInterfaceType(methods, embedded).Complete()
	case *types.Union:
		terms := make([]*types.Term, t.Len())
		for i := range terms {
			terms[i] = types.NewTerm(t.Term(i).Tilde(), subst(t.Term(i).Type(), env))
		}
		return types.NewUnion(terms)
	case *types.Named:
		if t.TypeArgs().Len() == 0 {
			return t
		}
		args := make([]types.Type, t.TypeArgs().Len())
		for i := range args {
			args[i] = subst(t.TypeArgs().At(i), env)
		}
		inst, err := types.Instantiate(nil, t.Origin(), args, false)
		if err != nil {
			return t
		}
		return inst
	}
	return t
}

// substTuple is subst of each variable of a tuple.
func substTuple(t *types.Tuple, env map[*types.TypeParam]types.Type) *types.Tuple {
	if t == nil {
		return nil
	}
	vars := make([]*types.Var, t.Len())
	for i := range vars {
		v := t.At(i)
		vars[i] = types.NewParam(v.Pos(), v.Pkg(), v.Name(), subst(v.Type(), env))
	}
	return types.NewTuple(vars...)
}

// A typeWriter writes concrete types as the interpreter reads them in
// the session's package main: an instance by the name of its
// declaration (Stackᐸintᐳ), which it asks for; a package's type by the
// name the session imports the package under.
type typeWriter struct {
	main      *types.Package
	std       *Std
	locals    map[*types.TypeName]string // the names of hoisted local types
	qualifier types.Qualifier
	// instance returns the name of an instance's declaration, and of
	// a type of a standard package the lowering reads from source.
	instance func(*types.Named) (string, error)
}

// write writes t, or fails for a type no declaration at package level
// can name: a type parameter left, or a type declared inside a function.
func (w *typeWriter) write(t types.Type) (string, error) {
	var b strings.Builder
	err := w.writeTo(&b, t)
	return b.String(), err
}

// writeTo writes t to b.
func (w *typeWriter) writeTo(b *strings.Builder, t types.Type) error {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			b.WriteString("unsafe.Pointer")
			return nil
		}
		b.WriteString(t.Name())
	case *types.Alias:
		return w.writeTo(b, types.Unalias(t))
	case *types.Pointer:
		b.WriteString("*")
		return w.writeTo(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		return w.writeTo(b, t.Elem())
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		return w.writeTo(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		if err := w.writeTo(b, t.Key()); err != nil {
			return err
		}
		b.WriteString("]")
		return w.writeTo(b, t.Elem())
	case *types.Chan:
		return w.writeChan(b, t)
	case *types.Signature:
		b.WriteString("func")
		return w.writeSignature(b, t)
	case *types.Struct:
		return w.writeStruct(b, t)
	case *types.Interface:
		return w.writeInterface(b, t)
	case *types.Named:
		return w.writeNamed(b, t)
	case *types.TypeParam:
		return fmt.Errorf("the type parameter %s is left unresolved", t.Obj().Name())
	default:
		return fmt.Errorf("cannot write the type %s", t)
	}
	return nil
}

// writeChan writes a channel type.
func (w *typeWriter) writeChan(b *strings.Builder, t *types.Chan) error {
	switch t.Dir() {
	case types.SendOnly:
		b.WriteString("chan<- ")
	case types.RecvOnly:
		b.WriteString("<-chan ")
	default:
		b.WriteString("chan ")
		if e, ok := t.Elem().(*types.Chan); ok && e.Dir() == types.RecvOnly {
			b.WriteString("(")
			defer b.WriteString(")")
		}
	}
	return w.writeTo(b, t.Elem())
}

// writeSignature writes a function's parameters and results.
func (w *typeWriter) writeSignature(b *strings.Builder, s *types.Signature) error {
	if err := w.writeTuple(b, s.Params(), s.Variadic()); err != nil {
		return err
	}
	if s.Results().Len() == 0 {
		return nil
	}
	b.WriteString(" ")
	if s.Results().Len() == 1 && s.Results().At(0).Name() == "" {
		return w.writeTo(b, s.Results().At(0).Type())
	}
	return w.writeTuple(b, s.Results(), false)
}

// writeTuple writes the types of a parameter list, in parentheses.
func (w *typeWriter) writeTuple(b *strings.Builder, t *types.Tuple, variadic bool) error {
	b.WriteString("(")
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		if err := w.writeTo(b, typ); err != nil {
			return err
		}
	}
	b.WriteString(")")
	return nil
}

// writeStruct writes a struct type, its fields' tags included.
func (w *typeWriter) writeStruct(b *strings.Builder, t *types.Struct) error {
	b.WriteString("struct{")
	for i := 0; i < t.NumFields(); i++ {
		if i > 0 {
			b.WriteString("; ")
		}
		f := t.Field(i)
		if !f.Embedded() {
			b.WriteString(f.Name() + " ")
		}
		if err := w.writeTo(b, f.Type()); err != nil {
			return err
		}
		if tag := t.Tag(i); tag != "" {
			b.WriteString(" " + strconv.Quote(tag))
		}
	}
	b.WriteString("}")
	return nil
}

// writeInterface writes an interface type: its methods and embedded
// types.
func (w *typeWriter) writeInterface(b *strings.Builder, t *types.Interface) error {
	b.WriteString("interface{")
	n := 0
	for i := 0; i < t.NumExplicitMethods(); i++ {
		if n++; n > 1 {
			b.WriteString("; ")
		}
		m := t.ExplicitMethod(i)
		b.WriteString(m.Name())
		if err := w.writeSignature(b, m.Type().(*types.Signature)); err != nil {
			return err
		}
	}
	for i := 0; i < t.NumEmbeddeds(); i++ {
		if n++; n > 1 {
			b.WriteString("; ")
		}
		if err := w.writeTo(b, t.EmbeddedType(i)); err != nil {
			return err
		}
	}
	b.WriteString("}")
	return nil
}

// writeNamed writes a named type: an instance by its declaration's name,
// a type of package main by its name, another package's through the
// qualifier.
func (w *typeWriter) writeNamed(b *strings.Builder, t *types.Named) error {
	if t.TypeArgs().Len() > 0 || (t.Obj().Pkg() != w.main && w.std.LowersObject(t.Obj())) {
		name, err := w.instance(t)
		b.WriteString(name)
		return err
	}
	obj := t.Obj()
	if obj.Pkg() == nil { // error, comparable
		b.WriteString(obj.Name())
		return nil
	}
	if name := w.locals[obj]; name != "" && name != "?" {
		b.WriteString(name)
		return nil
	}
	if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
		return fmt.Errorf("%s is declared inside a function", obj.Name())
	}
	if obj.Pkg() != w.main {
		b.WriteString(w.qualifier(obj.Pkg()) + ".")
	}
	b.WriteString(obj.Name())
	return nil
}

// goString writes t as Go writes it in messages: packages by their
// names, instances with their type arguments.
func goString(t types.Type, main *types.Package) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == main {
			return ""
		}
		return p.Name()
	})
}

// keyString writes t so that two types get the same string only if they
// are identical: packages by their paths.
func keyString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Path() })
}
