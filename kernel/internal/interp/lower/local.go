package lower

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// A type declared inside a function cannot be named by a declaration at
// package level, where the instances it is a type argument of are
// written: the lowering declares it there, under a name of its own that
// messages give back as its own (large, declared in main, becomes
// largeᐧ…), takes its declaration out of the function, and names it so
// in the function's code. One declared inside a generic function, which
// may use the function's type parameters, is still refused.

// hoistLocals finds the types declared inside functions that the file's
// instantiations have among their type arguments, with the local types
// those use, and gives each a name; it returns the edits that take their
// declarations out of the functions.
func (cl *cellLowering) hoistLocals() ([]check.Edit, error) {
	specs := cl.localSpecs()
	var queue []*types.TypeName
	add := func(t types.Type) {
		cell.InspectType(t, func(t types.Type) bool {
			if n, ok := t.(*types.Named); ok {
				if tn := n.Obj(); specs[tn] != nil && cl.locals[tn] == "" {
					cl.locals[tn] = "?" // asked for
					queue = append(queue, tn)
				}
			}
			return true
		})
	}
	for id, inst := range cl.cc.Info.Instances {
		if cl.lowers(cl.cc.Info.Uses[id]) {
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				add(inst.TypeArgs.At(i))
			}
		}
	}
	var edits []check.Edit
	for len(queue) > 0 {
		tn := queue[0]
		queue = queue[1:]
		ls := specs[tn]
		if ls.generic {
			return nil, fmt.Errorf("%s is declared inside a generic function", tn.Name())
		}
		add(types.Unalias(tn.Type()).Underlying())
		cl.locals[tn] = cl.l.names.name("local\x00"+ls.fn+"\x00"+tn.Name()+"\x00"+strconv.Itoa(cl.offset(ls.spec.Pos())), tn.Name())
		cl.skip[ls.node] = true
		edits = append(edits, cl.blank(ls.node))
		cl.hoisted = append(cl.hoisted, tn)
	}
	return edits, nil
}

// A localSpec is the declaration of a type inside a function: the spec,
// the node to take out of the function for it, the function's name, and
// whether the function is generic.
type localSpec struct {
	spec    *ast.TypeSpec
	node    ast.Node
	fn      string
	generic bool
}

// localSpecs finds the types declared inside the functions of the file.
func (cl *cellLowering) localSpecs() map[*types.TypeName]*localSpec {
	specs := map[*types.TypeName]*localSpec{}
	for _, d := range cl.cc.File.Parsed.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		generic := fd.Type.TypeParams != nil || (fd.Recv != nil && len(fd.Recv.List) > 0 && isGenericReceiver(fd.Recv.List[0].Type))
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			ds, ok := n.(*ast.DeclStmt)
			if !ok {
				return true
			}
			gd := ds.Decl.(*ast.GenDecl)
			for _, s := range gd.Specs {
				spec, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				if tn, ok := cl.cc.Info.Defs[spec.Name].(*types.TypeName); ok {
					node := ast.Node(spec)
					if len(gd.Specs) == 1 {
						node = ds
					}
					specs[tn] = &localSpec{spec: spec, node: node, fn: fd.Name.Name, generic: generic}
				}
			}
			return true
		})
	}
	return specs
}

// writeLocals adds the declarations of the hoisted local types.
func (cl *cellLowering) writeLocals() error {
	specs := cl.localSpecs()
	for _, tn := range cl.hoisted {
		spec := specs[tn].spec
		edits, err := cl.substEdits(cl.cell, spec.Type, nil)
		if err != nil {
			return err
		}
		assign := " "
		if spec.Assign.IsValid() {
			assign = " = "
		}
		cl.add(cl.locals[tn], "type "+cl.locals[tn]+assign+applied(cl.cell, spec.Type, edits))
	}
	return nil
}
