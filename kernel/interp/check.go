package interp

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/cells"
)

// A checker type-checks each cell with go/types against what the cells
// before it declared, before yaegi runs it, so that a cell gets Go's own
// errors at its own lines; and it rewrites, or refuses, what yaegi v0.16.1
// would run differently from Go.
type checker struct {
	fset *token.FileSet
	imp  types.Importer
	// has reports whether yaegi has the package of an import path, and
	// hasSymbol whether it has a name of that package.
	has       func(path string) bool
	hasSymbol func(path, name string) bool

	imports map[string]string // import path → the name it was imported as ("" for its own)
	// typeImports are packages the types of session variables come from
	// without the cells importing them (hash, for a hash.Hash).
	typeImports map[string]string // path → alias, for checking
	// typeImported are the type-only imports the interpreter has made.
	typeImported map[string]string
	// decls are what the cells declared, one per name; declAt indexes
	// them by name.
	decls  []sessionDecl
	declAt map[string]int
	// notes are messages for the person, from the last check.
	notes []string
}

// A sessionDecl is what a cell declared, as Go source for checking later
// cells: a type or func as written, a variable or constant by its type.
type sessionDecl struct {
	name string
	src  string
	doc  string // the doc comment of a type or func, for inspection
}

// A step is a piece of a cell for yaegi, rewritten where needed.
type step struct {
	kind stepKind
	text string
	// texts, if set, are what yaegi runs instead of text, one after the
	// other (see varStatements).
	texts []string
	line  int // the cell line it starts on
	// decls are what the step declares for later cells, once it has run.
	decls []sessionDecl
	// imports are the imports the step adds, before it runs: path → name;
	// typeImports those only its variables' types need, path → alias.
	imports, typeImports map[string]string
	// interpreted is set on a result whose type involves types the cells
	// declared.
	interpreted bool
}

type stepKind int

const (
	importStep stepKind = iota
	declStep
	varStep // declares a var declaration's variables by type, without values
	stmtStep
	resultStep // the cell's last expression, which has a value
)

// An Unsupported error is a cell the interpreter cannot run as Go would.
type Unsupported struct {
	Line int
	What string
}

func (u *Unsupported) Error() string {
	return fmt.Sprintf("cell line %d: the instant engine cannot run %s; put %%%%gonb on the cell's first line to compile it with GoNB", u.Line, u.What)
}

// A CompileError is a cell that does not type-check. A cell that does not
// parse has Msg "syntax error: " and go/parser's message, as the Go
// compiler names it.
type CompileError struct {
	Line int
	Msg  string
}

func (c *CompileError) Error() string { return fmt.Sprintf("cell line %d: %s", c.Line, c.Msg) }

func newChecker(fset *token.FileSet, imp types.Importer, has func(string) bool, hasSymbol func(path, name string) bool) *checker {
	return &checker{fset: fset, imp: imp, has: has, hasSymbol: hasSymbol, imports: map[string]string{}, typeImports: map[string]string{}, typeImported: map[string]string{}, declAt: map[string]int{}}
}

// cellFunc is the function the checked file wraps a cell's statements in.
const cellFunc = "tensornbCell"

// span is where a unit of the cell sits in the checked file.
type span struct {
	unit        cells.Unit
	first, last int // file lines
	offset      int // file byte offset of the unit's text
	// nodes are the declarations, or the statements of the cell's
	// function, that start on its lines, once the file is parsed.
	nodes []ast.Node
}

// check type-checks code and returns the steps to run it. A package the
// cell uses without importing it is imported for it, as goimports does
// for GoNB's cells, when its name says which package it is.
func (c *checker) check(code string) ([]step, error) {
	auto := map[string]bool{}
	for {
		var missing []string
		steps, err := c.checkCell(code, auto, &missing)
		var stale *staleDecl
		switch {
		case errors.As(err, &stale):
			c.forget(stale.name)
			c.notes = append(c.notes, fmt.Sprintf("tensornb: %s, from an earlier cell, no longer compiles with this cell (%s); it is forgotten: declare it again to use it.\n", stale.name, stale.msg))
			continue
		case err == nil || len(missing) == 0:
			return steps, err
		}
		for _, p := range missing {
			auto[p] = true
		}
	}
}

// A staleDecl is an earlier cell's declaration that no longer compiles.
type staleDecl struct{ name, msg string }

func (s *staleDecl) Error() string { return s.name + ": " + s.msg }

// forget drops the session's declaration of name.
func (c *checker) forget(name string) {
	i, ok := c.declAt[name]
	if !ok {
		return
	}
	c.decls = append(c.decls[:i], c.decls[i+1:]...)
	delete(c.declAt, name)
	for j := i; j < len(c.decls); j++ {
		c.declAt[c.decls[j].name] = j
	}
}

// decl returns the session's declaration of name.
func (c *checker) decl(name string) (sessionDecl, bool) {
	i, ok := c.declAt[name]
	if !ok {
		return sessionDecl{}, false
	}
	return c.decls[i], true
}

// checkCell does the work of check with the packages in auto imported.
// When the cell uses packages it does not import, it lists them in
// missing and returns an error, for check to try again.
func (c *checker) checkCell(code string, auto map[string]bool, missing *[]string) ([]step, error) {
	units := cells.Split(code)

	// Imports: the session's, and the cell's own.
	cellImports := map[string]string{}
	for _, u := range units {
		if !isImport(u) {
			continue
		}
		ifs := token.NewFileSet()
		f, err := parser.ParseFile(ifs, "", "package p\n"+u.Text, parser.ImportsOnly)
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) && len(list) > 0 {
				return nil, &CompileError{Line: u.Line + list[0].Pos.Line - 2, Msg: "syntax error: " + list[0].Msg}
			}
			return nil, &CompileError{Line: u.Line, Msg: err.Error()}
		}
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			name := ""
			if spec.Name != nil {
				name = spec.Name.Name
			}
			if !c.has(path) {
				return nil, &Unsupported{Line: u.Line + ifs.Position(spec.Pos()).Line - 2, What: fmt.Sprintf("package %s, which it does not have compiled in", path)}
			}
			if had, ok := c.imports[path]; ok && had != name {
				return nil, &CompileError{Line: u.Line, Msg: fmt.Sprintf("%s is imported already as %q; import it once, under one name", spec.Path.Value, had)}
			}
			cellImports[path] = name
		}
	}
	for p := range auto {
		if _, ok := c.imports[p]; !ok {
			cellImports[p] = ""
		}
	}
	all := map[string]string{}
	for p, n := range c.imports {
		all[p] = n
	}
	for p, n := range cellImports {
		all[p] = n
	}
	// The session's declarations, less those the cell declares again. A
	// type may be declared again only as it was: yaegi v0.16.1 keeps the
	// first definition of a type.
	redeclared := map[string]bool{}
	for _, u := range units {
		if u.Declaration && !isImport(u) {
			for _, n := range declaredNames(u.Text) {
				redeclared[n] = true
			}
			for name, src := range typeSpecs(u.Text) {
				if d, ok := c.decl(name); ok && strings.HasPrefix(d.src, "type ") && normalize(d.src) != normalize("type "+src) {
					return nil, &Unsupported{Line: u.Line, What: "a new definition of the type " + name + " (it keeps the first one; restart the kernel to define it anew)"}
				}
			}
			for _, name := range declaredNames(u.Text) {
				if !strings.Contains(name, ".") {
					continue
				}
				if d, ok := c.decl(name); ok && normalize(d.src) != normalize(stripComments(u.Text)) {
					return nil, &Unsupported{Line: u.Line, What: "a new definition of the method " + name + " (it keeps the first one; restart the kernel to define it anew)"}
				}
			}
		}
	}
	cf := c.assemble(units, all, redeclared)
	src, spans := cf.src, cf.spans

	// Positions in the file map back to cell lines.
	lineToCell := func(l int) (int, bool) {
		if i := cf.spanAt(l); i >= 0 {
			return spans[i].unit.Line + l - spans[i].first, true
		}
		return 0, false
	}
	cellLine := func(pos token.Pos) (int, bool) { return lineToCell(c.fset.Position(pos).Line) }

	file, err := parser.ParseFile(c.fset, "cell.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			l, ok := lineToCell(list[0].Pos.Line)
			if !ok {
				l = 1
			}
			return nil, &CompileError{Line: l, Msg: "syntax error: " + list[0].Msg}
		}
		return nil, &CompileError{Line: 1, Msg: err.Error()}
	}

	info := &types.Info{
		Types:     map[ast.Expr]types.TypeAndValue{},
		Defs:      map[*ast.Ident]types.Object{},
		Uses:      map[*ast.Ident]types.Object{},
		Scopes:    map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{},
	}
	var typeErrs []types.Error
	conf := types.Config{Importer: c.imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			typeErrs = append(typeErrs, te)
		}
	}}
	pkg, _ := conf.Check("main", c.fset, []*ast.File{file}, info)

	var body *ast.FuncDecl
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == cellFunc {
			body = fd
		}
	}
	cf.place(c.fset, file.Decls, body.Body.List)
	// The position of the cell's last expression statement, if it ends
	// with one.
	var lastExpr token.Pos
	if n := len(body.Body.List); n > 0 {
		if es, ok := body.Body.List[n-1].(*ast.ExprStmt); ok {
			lastExpr = es.X.Pos()
		}
	}
	topVars := map[string]bool{}
	if sc := info.Scopes[body.Type]; sc != nil {
		for _, n := range sc.Names() {
			topVars[n] = true
		}
	}
	// An earlier cell's declaration that no longer compiles (a function
	// using a variable a later cell redefined with another type) is
	// forgotten, and the cell checked again without it.
	for _, te := range typeErrs {
		if ss, ok := cf.sessionSpanAt(c.fset.Position(te.Pos).Line); ok {
			return nil, &staleDecl{name: ss.name, msg: te.Msg}
		}
	}
	for _, te := range typeErrs {
		if name, ok := strings.CutPrefix(te.Msg, "undefined: "); ok {
			if p := packageNamed(name); p != "" && !auto[p] {
				*missing = append(*missing, p)
			}
		}
	}
	if len(*missing) > 0 {
		return nil, &CompileError{Line: 1, Msg: "missing imports"}
	}
	for _, te := range typeErrs {
		if te.Soft && ((strings.Contains(te.Msg, "imported") && strings.HasSuffix(te.Msg, "and not used")) ||
			(strings.HasPrefix(te.Msg, "declared and not used: ") && topVars[strings.TrimPrefix(te.Msg, "declared and not used: ")])) {
			continue // the session keeps them for later cells
		}
		if strings.HasSuffix(te.Msg, " is not used") && te.Pos == lastExpr {
			continue // the cell's last expression: its value is the result
		}
		if l, ok := cellLine(te.Pos); ok {
			return nil, &CompileError{Line: l, Msg: te.Msg}
		}
		return nil, &CompileError{Line: 1, Msg: te.Msg}
	}

	// What the cell's top level does that runs differently here: each
	// statement runs as a function of its own, and session variables share
	// one scope with the imports.
	imported := map[string]bool{}
	for p, n := range all { // the cells' own imports, not typeAlias's
		if n == "" {
			if pkg, err := c.imp.Import(p); err == nil {
				n = pkg.Name()
			}
		}
		imported[n] = true
	}
	for _, st := range body.Body.List {
		switch st := st.(type) {
		case *ast.DeferStmt:
			l, _ := cellLine(st.Pos())
			return nil, &Unsupported{Line: l, What: "a defer at the top level of a cell (it would run at the end of its statement, not of the cell; put it in a function)"}
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok && imported[id.Name] {
						l, _ := cellLine(st.Pos())
						return nil, &Unsupported{Line: l, What: "a variable named " + id.Name + ", like an imported package (choose another name)"}
					}
				}
			}
		}
		var ret token.Pos
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if !ret.IsValid() {
					ret = n.Pos()
				}
			}
			return true
		})
		if ret.IsValid() {
			l, _ := cellLine(ret)
			return nil, &Unsupported{Line: l, What: "a return at the top level of a cell"}
		}
	}

	// Rewrites and refusals, as edits of the file's text.
	r := &rewriter{hasSymbol: c.hasSymbol, src: src, info: info, fset: c.fset, cellLine: cellLine, pkg: pkg, qualifier: c.qualifier(pkg)}
	for _, s := range spans {
		for _, n := range s.nodes {
			r.walk(n)
		}
	}
	if r.refusal != nil {
		return nil, r.refusal
	}
	r.sortEdits()

	// The steps, in the cell's order, after the imports added for it.
	var steps []step
	if len(auto) > 0 {
		imports := map[string]string{}
		for p := range auto {
			if _, ok := c.imports[p]; !ok {
				imports[p] = ""
			}
		}
		steps = append(steps, step{kind: importStep, line: 1, imports: imports})
	}
	spanOf := make(map[int]span, len(spans)) // by the offset of the unit in the cell
	for _, s := range spans {
		spanOf[s.unit.Offset] = s
	}
	last := lastStatement(units)
	for _, u := range units {
		if isImport(u) {
			imports := map[string]string{}
			f, _ := parser.ParseFile(token.NewFileSet(), "", "package p\n"+u.Text, parser.ImportsOnly)
			for _, spec := range f.Imports {
				path, _ := strconv.Unquote(spec.Path.Value)
				if _, ok := c.imports[path]; !ok {
					imports[path] = cellImports[path]
				}
			}
			steps = append(steps, step{kind: importStep, line: u.CodeLine(), imports: imports})
			continue
		}
		sp := spanOf[u.Offset]
		text := r.apply(src, sp.offset, sp.offset+len(u.Text))
		st := step{kind: stmtStep, text: text, line: u.CodeLine()}
		if u.Declaration {
			st.kind = declStep
			st.decls = c.declsOf(info, sp, src)
			st.texts, st.typeImports = c.definitions(info, sp, r, cellImports)
			if st.texts != nil {
				steps = append(steps, splitVar(st)...)
				continue
			}
		} else {
			st.decls = c.varsOf(info, sp)
			st.texts, st.typeImports = c.definitions(info, sp, r, cellImports)
			if u.Offset == last.Offset && hasValue(info, sp) {
				st.kind = resultStep
				// The expression alone: a comment after it would swallow
				// the parenthesis that wraps it.
				st.text = r.apply(src, sp.offset+u.CodeStart, sp.offset+u.CodeEnd)
				st.interpreted = involvesMain(resultType(info, sp), pkg)
			}
		}
		steps = append(steps, st)
	}
	// Go lets a cell use a type, variable or function it declares further
	// down, as a program may: imports run first, then types and constants,
	// then the variables (declared with their types, not yet given their
	// values), then functions, then the values of variables and the
	// statements, in the order written.
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].rank() < steps[j].rank() })
	return steps, nil
}

// lastStatement returns the cell's last unit that is not a declaration:
// if it is an expression, its value is the cell's result, even when
// declarations follow it.
func lastStatement(units []cells.Unit) cells.Unit {
	for i := len(units) - 1; i >= 0; i-- {
		if !units[i].Declaration {
			return units[i]
		}
	}
	return cells.Unit{Offset: -1}
}

// splitVar splits the step of a var declaration into a varStep that
// declares its variables by type, which runs before the cell's functions
// (they may use the variables), and a declStep that gives them their
// values, in the cell's order (the values may call the functions).
func splitVar(st step) []step {
	declare, assign := st, st
	declare.kind, declare.texts = varStep, nil
	assign.texts, assign.decls, assign.typeImports = nil, nil, nil
	for _, t := range st.texts {
		if strings.HasPrefix(t, "var ") {
			declare.texts = append(declare.texts, t)
		} else {
			assign.texts = append(assign.texts, t)
		}
	}
	switch {
	case declare.texts == nil: // x := e, for a type no cell can write
		assign.decls, assign.typeImports = st.decls, st.typeImports
		return []step{assign}
	case assign.texts == nil:
		return []step{declare}
	}
	return []step{declare, assign}
}

// rank orders steps for running; see the end of checkCell.
func (s step) rank() int {
	switch {
	case s.kind == importStep:
		return 0
	case s.kind == declStep && s.texts == nil && !strings.HasPrefix(strings.TrimSpace(stripComments(s.text)), "func"):
		return 1
	case s.kind == varStep:
		return 2
	case s.kind == declStep && s.texts == nil:
		return 3
	}
	return 4
}

// commit records what a step that ran declared, for the cells after it.
func (c *checker) commit(s step) {
	for p, n := range s.imports {
		c.imports[p] = n
	}
	for p, n := range s.typeImports {
		c.typeImported[p] = n
	}
	for _, d := range s.decls {
		if i, ok := c.declAt[d.name]; ok {
			c.decls[i] = d // the order of package-level declarations does not matter
			continue
		}
		c.declAt[d.name] = len(c.decls)
		c.decls = append(c.decls, d)
	}
}

// qualifier names packages in type strings as the session imports them.
func (c *checker) qualifier(main *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == main {
			return ""
		}
		if n, ok := c.imports[p.Path()]; ok {
			if n == "" {
				return p.Name()
			}
			return n
		}
		c.typeImports[p.Path()] = typeAlias(p)
		return typeAlias(p)
	}
}

// typeAlias is the name a package is imported under when only a type
// needs it (hash, for the hash.Hash of sha256.New()): one no cell uses, so
// that a cell may still name a variable hash.
func typeAlias(p *types.Package) string { return typeAliasPrefix + p.Name() }

// typeAliasPrefix starts the names of typeAlias.
const typeAliasPrefix = "tensornbPkg_"

// declsOf returns what a declaration unit declares: types and funcs as
// written, variables and constants by type and value.
func (c *checker) declsOf(info *types.Info, sp span, src string) []sessionDecl {
	var out []sessionDecl
	for _, n := range sp.nodes {
		d, ok := n.(ast.Decl)
		if !ok {
			continue
		}
		text := src[c.fset.Position(d.Pos()).Offset:c.fset.Position(d.End()).Offset]
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = types.ExprString(d.Recv.List[0].Type) + "." + name
			}
			out = append(out, sessionDecl{name: name, src: text, doc: d.Doc.Text()})
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					s := src[c.fset.Position(spec.Pos()).Offset:c.fset.Position(spec.End()).Offset]
					doc := spec.Doc.Text()
					if doc == "" && len(d.Specs) == 1 {
						doc = d.Doc.Text()
					}
					out = append(out, sessionDecl{name: spec.Name.Name, src: "type " + s, doc: doc})
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						if obj := info.Defs[n]; obj != nil && n.Name != "_" && c.writable(obj) {
							out = append(out, c.objectDecl(obj))
						}
					}
				}
			}
		}
	}
	return out
}

// definitions returns the statements yaegi runs for a var declaration
// unit, or for a statement unit that is a single x := e: each new
// variable declared with its type (var x T), then the values assigned
// (x = e). yaegi v0.16.1 gets some definitions wrong when it infers their
// types itself: x := e where e indexes a compiled package's slice type
// ("constant definition loop"), and a package-level var initialized from
// another ("variable definition loop"). It returns nil for other units,
// and imports lists packages the types need imported first.
func (c *checker) definitions(info *types.Info, sp span, r *rewriter, cellImports map[string]string) (texts []string, imports map[string]string) {
	imports = map[string]string{}
	var out []string
	// plain is x := e, for a type no cell can write (an unexported type of
	// a compiled package): yaegi infers it, and later statements of the
	// cell can use x.
	plain := func(idents []*ast.Ident, values []ast.Expr) string {
		names := make([]string, len(idents))
		for i, id := range idents {
			names[i] = id.Name
		}
		return strings.Join(names, ", ") + " := " + r.apply(r.src, r.offset(values[0].Pos()), r.offset(values[len(values)-1].End()))
	}
	define := func(idents []*ast.Ident, typ ast.Expr, values []ast.Expr) bool {
		var lhs []string
		for _, id := range idents {
			lhs = append(lhs, id.Name)
			obj, _ := info.Defs[id].(*types.Var)
			if obj == nil || id.Name == "_" {
				continue // not new: x, err := … with x declared before
			}
			t := ""
			if typ != nil {
				t = r.source(typ)
			} else if t = c.typeFor(obj.Type(), r.pkg, cellImports, imports); t == "" {
				return false
			}
			out = append(out, "var "+id.Name+" "+t)
		}
		if len(values) > 0 {
			out = append(out, strings.Join(lhs, ", ")+" = "+r.apply(r.src, r.offset(values[0].Pos()), r.offset(values[len(values)-1].End())))
		}
		return true
	}
	for _, n := range sp.nodes {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if !define(vs.Names, vs.Type, vs.Values) {
				out = append(out, plain(vs.Names, vs.Values))
			}
		}
		return out, imports
	}
	for _, n := range sp.nodes {
		if _, ok := n.(ast.Stmt); !ok {
			continue
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			return nil, nil
		}
		var idents []*ast.Ident
		for _, e := range as.Lhs {
			id, ok := e.(*ast.Ident)
			if !ok {
				return nil, nil
			}
			idents = append(idents, id)
		}
		if !define(idents, nil, as.Rhs) {
			return []string{plain(idents, as.Rhs)}, imports
		}
		return out, imports
	}
	return nil, nil
}

// typeFor writes t as yaegi can read it in the session: its packages by
// the names the session or the cell imports them under, and others added
// to imports. It returns "" for a type that cannot be written (an
// unexported type of a compiled package, a package yaegi lacks).
func (c *checker) typeFor(t types.Type, main *types.Package, cellImports, imports map[string]string) string {
	ok := true
	q := func(p *types.Package) string {
		if p == main {
			return ""
		}
		for _, known := range []map[string]string{c.imports, cellImports} {
			if n, found := known[p.Path()]; found {
				if n == "" {
					return p.Name()
				}
				return n
			}
		}
		if alias, found := c.typeImported[p.Path()]; found {
			return alias
		}
		if !c.has(p.Path()) {
			ok = false
		}
		imports[p.Path()] = typeAlias(p)
		return typeAlias(p)
	}
	var exported func(types.Type)
	seen := map[types.Type]bool{}
	exported = func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			if t.Obj().Pkg() != nil && t.Obj().Pkg() != main && !t.Obj().Exported() {
				ok = false
			}
		case *types.Pointer:
			exported(t.Elem())
		case *types.Slice:
			exported(t.Elem())
		case *types.Array:
			exported(t.Elem())
		case *types.Map:
			exported(t.Key())
			exported(t.Elem())
		case *types.Chan:
			exported(t.Elem())
		}
	}
	exported(t)
	s := types.TypeString(t, q)
	if !ok {
		return ""
	}
	return s
}

// varsOf returns the variables a statement unit defines at the top level
// of the cell, which live on as session variables.
func (c *checker) varsOf(info *types.Info, sp span) []sessionDecl {
	var out []sessionDecl
	for _, st := range sp.nodes {
		var idents []*ast.Ident
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						idents = append(idents, id)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok {
				for _, spec := range gd.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok {
						idents = append(idents, vs.Names...)
					}
				}
			}
		}
		for _, id := range idents {
			if obj := info.Defs[id]; obj != nil && id.Name != "_" && c.writable(obj) {
				out = append(out, c.objectDecl(obj))
			}
		}
	}
	return out
}

// writable reports whether obj's type can be written in a later cell: not
// an unexported type of a compiled package (http.NoBody's). A variable of
// such a type is not kept for later cells.
func (c *checker) writable(obj types.Object) bool {
	return c.typeFor(obj.Type(), obj.Pkg(), nil, map[string]string{}) != ""
}

// objectDecl writes a variable or constant as a declaration by its type.
func (c *checker) objectDecl(obj types.Object) sessionDecl {
	q := c.qualifier(obj.Pkg())
	if k, ok := obj.(*types.Const); ok {
		if b, ok := k.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return sessionDecl{name: k.Name(), src: fmt.Sprintf("const %s = %s", k.Name(), constLiteral(k.Val(), k.Type()))}
		}
		return sessionDecl{name: k.Name(), src: fmt.Sprintf("const %s %s = %s", k.Name(), types.TypeString(k.Type(), q), constLiteral(k.Val(), k.Type()))}
	}
	return sessionDecl{name: obj.Name(), src: fmt.Sprintf("var %s %s", obj.Name(), types.TypeString(obj.Type(), q))}
}

// constLiteral writes a constant so that Go reads back the same value and
// the same kind of untyped constant: 1/2 as (1.0/2), a float 2 as 2.0, a
// rune as 'x'.
func constLiteral(v constant.Value, t types.Type) string {
	b, _ := t.Underlying().(*types.Basic)
	if b != nil && b.Info()&types.IsFloat != 0 {
		v = constant.ToFloat(v) // min(1, 2.5) is 1, of kind float
	}
	s := v.ExactString()
	switch {
	case b != nil && b.Kind() == types.UntypedRune && v.Kind() == constant.Int:
		if r, ok := constant.Int64Val(v); ok {
			return strconv.QuoteRune(rune(r))
		}
	case v.Kind() == constant.Float:
		if num, den, ok := strings.Cut(s, "/"); ok {
			return "(" + num + ".0/" + den + ")"
		}
		if !strings.ContainsAny(s, ".eE") {
			return s + ".0"
		}
	}
	return s
}

// hasValue reports whether the statement unit at sp is an expression with
// a single value.
func hasValue(info *types.Info, sp span) bool {
	for _, st := range sp.nodes {
		if _, ok := st.(ast.Stmt); !ok {
			continue
		}
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		tv, ok := info.Types[es.X]
		if !ok || !tv.IsValue() {
			return false
		}
		_, tuple := tv.Type.(*types.Tuple)
		return !tuple
	}
	return false
}

// resultType is the type of the expression statement at sp.
func resultType(info *types.Info, sp span) types.Type {
	for _, st := range sp.nodes {
		if es, ok := st.(*ast.ExprStmt); ok {
			return info.Types[es.X].Type
		}
	}
	return nil
}

// involvesMain reports whether t is, or is made of, types declared in
// package main, the cells' package.
func involvesMain(t types.Type, main *types.Package) bool {
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			return t.Obj().Pkg() == main
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case *types.Chan:
			return walk(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if walk(t.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// declaredNames lists the names a declaration unit declares.
func declaredNames(text string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = types.ExprString(d.Recv.List[0].Type) + "." + name
			}
			names = append(names, name)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					names = append(names, spec.Name.Name)
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

// packageNamed returns the import path of the one package yaegi has under
// name, or "" if it has none or several (rand: math/rand or crypto/rand).
func packageNamed(name string) string {
	found := ""
	for p := range compiledIn() {
		if p[strings.LastIndex(p, "/")+1:] == name {
			if found != "" {
				return ""
			}
			found = p
		}
	}
	return found
}

// typeSpecs returns the type specs a declaration unit holds, by name.
func typeSpecs(text string) map[string]string {
	src := "package p\n" + text
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				out[ts.Name.Name] = src[fset.Position(ts.Pos()).Offset:fset.Position(ts.End()).Offset]
			}
		}
	}
	return out
}

// normalize drops the spaces of a declaration, to compare two of them.
func normalize(s string) string { return strings.Join(strings.Fields(s), "") }

func isImport(u cells.Unit) bool {
	return u.Declaration && strings.HasPrefix(u.Code(), "import")
}
