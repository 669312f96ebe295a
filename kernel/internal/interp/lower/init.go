package lower

import (
	"fmt"
	"go/ast"
	"strings"
)

// initFuncs returns the init functions of a package's files, in the
// order Go runs them: the files' (sorted by name, as the go command
// gives them), and each file's in the order written.
func initFuncs(files []*ast.File) []*ast.FuncDecl {
	var inits []*ast.FuncDecl
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && fd.Body != nil {
				inits = append(inits, fd)
			}
		}
	}
	return inits
}

// askInit writes, the first time the lowering writes a declaration of a
// module's package that has init functions, those functions, under
// names of their own, and a variable whose value runs them, as a program
// runs them before its code: after the variables they use (the
// rewrite gives variables their values in Go's order), and before the
// cell's variables and statements (they come after what the lowering
// added). A session runs them once: a later cell has the variable
// already, and does not declare it again.
func (cl *cellLowering) askInit(fr *from) error {
	sp := fr.std
	if len(sp.inits) == 0 {
		return nil
	}
	path := sp.pkg.Path()
	name := cl.l.names.name(path+"\x00init", sp.pkg.Name()+".init")
	if cl.asked[name] {
		return nil
	}
	cl.asked[name] = true
	calls := make([]string, len(sp.inits))
	for i, fd := range sp.inits {
		fn := cl.l.names.name(fmt.Sprintf("%s\x00init\x00%d", path, i), sp.pkg.Name()+".init")
		text, err := cl.funcText(fr, fd, nil, fn)
		if err != nil {
			return err
		}
		cl.add(fn, text)
		calls[i] = fn + "()"
	}
	cl.add(name, fmt.Sprintf("var %s = func() bool { %s; return true }()", name, strings.Join(calls, "; ")))
	return nil
}
