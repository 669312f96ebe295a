// Package interp runs cells with yaegi, the Go interpreter, keeping what
// every cell declares and computes for the cells after it, as a Python
// notebook does. tensor, display and the standard library are compiled
// in (package symbols), so only the cell's own code is interpreted.
package interp

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/kernel/cells"
	"github.com/tensornb/tensornb/kernel/front"
	"github.com/tensornb/tensornb/kernel/interp/symbols"
)

// resultVar is the session variable a cell's last expression is stored in
// before it is shown.
const resultVar = "tensornbResult"

// A Session interprets cells one after another in one yaegi interpreter.
type Session struct {
	in *interp.Interpreter
	// imported maps each import path evaluated so far to the name it was
	// imported under, so that a cell run again does not import it twice.
	imported map[string]string
}

// NewSession returns a session with the standard library, tensor and
// display importable.
func NewSession() (*Session, error) {
	in := interp.New(interp.Options{})
	if err := in.Use(stdlib.Symbols); err != nil {
		return nil, err
	}
	if err := in.Use(symbols.Symbols); err != nil {
		return nil, err
	}
	if _, err := in.Eval("var " + resultVar + " interface{}"); err != nil {
		return nil, err
	}
	return &Session{in: in, imported: map[string]string{}}, nil
}

// Run interprets a cell: its pieces in the order written, declarations
// kept for later cells. If the cell ends with an expression that has a
// value, the value is shown with display.Result, as Out[n]. A failure is
// a *front.CellError naming the cell's line.
func (s *Session) Run(ctx context.Context, code string) error {
	units := cells.Split(code)
	for i, u := range units {
		last := i == len(units)-1
		var err error
		switch {
		case u.Declaration && strings.HasPrefix(strings.TrimSpace(stripComments(u.Text)), "import"):
			err = s.imports(ctx, u)
		case last && !u.Declaration && isExpression(u.Text):
			err = s.result(ctx, u)
		default:
			_, err = s.eval(ctx, u.Text)
		}
		if err != nil {
			return cellError(err, u)
		}
	}
	return nil
}

// imports evaluates the imports of u that the session does not have yet.
// An import the session has under another name is an error, as Go would
// report a name clash.
func (s *Session) imports(ctx context.Context, u cells.Unit) error {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+u.Text, parser.ImportsOnly)
	if err != nil {
		return err
	}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		name := ""
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if had, ok := s.imported[path]; ok {
			if had != name {
				return fmt.Errorf("%s is imported already (as %q); import it once under one name", spec.Path.Value, had)
			}
			continue
		}
		if _, err := s.eval(ctx, "import "+name+" "+spec.Path.Value); err != nil {
			return err
		}
		s.imported[path] = name
	}
	return nil
}

// result evaluates the cell's last expression and shows its value. An
// expression without a single value (a call of a function that returns
// nothing) runs as a statement instead: yaegi refuses the assignment
// before running anything.
func (s *Session) result(ctx context.Context, u cells.Unit) error {
	if _, err := s.eval(ctx, resultVar+" = ("+u.Text+")"); err != nil {
		var compile interp.Panic
		if errors.As(err, &compile) {
			return err
		}
		if !noValue(err) {
			return err
		}
		_, err = s.eval(ctx, u.Text)
		return err
	}
	v, err := s.eval(ctx, resultVar)
	if err != nil {
		return err
	}
	if v.IsValid() && v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil // nil shows nothing, as None does in Python
	}
	display.Result(v.Interface())
	_, err = s.eval(ctx, resultVar+" = nil")
	return err
}

// noValue reports whether err is yaegi refusing to assign an expression
// that has no single value.
func noValue(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "used as value") || strings.Contains(msg, "assignment mismatch") || strings.Contains(msg, "invalid type in assignment")
}

// eval runs src, turning a panic inside yaegi into an error.
func (s *Session) eval(ctx context.Context, src string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter failed: %v", r)
		}
	}()
	return s.in.EvalWithContext(ctx, src)
}

// isExpression reports whether text is a single Go expression.
func isExpression(text string) bool {
	_, err := parser.ParseExpr(stripComments(text))
	return err == nil
}

// stripComments drops the comment lines a unit starts with.
func stripComments(text string) string {
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && (strings.HasPrefix(strings.TrimSpace(lines[0]), "//") || strings.TrimSpace(lines[0]) == "") {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// cellError makes err the cell's error: a panic keeps its value as a
// GoNB cell reports it (name "panic", value the panic's message), anything
// else is a compile error at the unit's line.
func cellError(err error, u cells.Unit) *front.CellError {
	var p interp.Panic
	if errors.As(err, &p) {
		value := fmt.Sprint(p.Value)
		if e, ok := p.Value.(error); ok {
			value = e.Error()
		}
		return &front.CellError{Name: "panic", Value: value, Traceback: []string{"panic: " + value, fmt.Sprintf("cell line %d: %s", u.Line, firstLine(u.Text))}}
	}
	msg := err.Error()
	return &front.CellError{Name: "CompileError", Value: fmt.Sprintf("cell line %d: %s", u.Line, msg), Traceback: []string{"CompileError: the cell does not compile", fmt.Sprintf("cell line %d: %s", u.Line, msg)}}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(stripComments(s), "\n")
	return strings.TrimSpace(line)
}
