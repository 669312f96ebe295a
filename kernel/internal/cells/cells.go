// Package cells splits a notebook cell of Go into its top-level pieces:
// declarations (import, type, var, const, func) and statements, in any
// order, as people write them. The engines arrange or evaluate the pieces.
package cells

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// A Unit is one top-level piece of a cell: a declaration or a statement,
// with the comments before it and the comment that ends its last line.
type Unit struct {
	Text        string
	Line        int // the cell line it starts on, from 1
	Offset      int // the byte it starts at in the cell; -1 for added text
	Declaration bool
	// CodeStart and CodeEnd are where the code lies in Text: from its
	// first token to the end of its last, without the comments around it
	// or a semicolon written after it.
	CodeStart, CodeEnd int
}

// Code returns the unit's code without the comments around it:
// "y.Strides()" for "// strides\ny.Strides()  // (12, 1, 4)".
func (u Unit) Code() string { return u.Text[u.CodeStart:u.CodeEnd] }

// CodeLine returns the cell line the unit's code starts on, after the
// comment lines before it.
func (u Unit) CodeLine() int { return u.Line + strings.Count(u.Text[:u.CodeStart], "\n") }

// Split splits a cell into its top-level pieces: the source between the
// semicolons (written or automatic) that fall outside all brackets.
func Split(code string) []Unit {
	fset := token.NewFileSet()
	file := fset.AddFile("cell.go", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), nil, scanner.ScanComments)

	var out []Unit
	start, depth := 0, 0
	header := false                       // inside the clauses of a for, if, switch or select, before its {
	var first token.Token = token.ILLEGAL // the first token of the current unit
	var recent []token.Token              // the last tokens, for compositeLiteral
	codeStart, codeEnd := -1, -1          // cell offsets of the current unit's code
	flush := func(end int) {
		text := code[start:end]
		if strings.TrimSpace(text) != "" {
			trimmed := strings.TrimLeft(text, "\n")
			offset := start + len(text) - len(trimmed)
			line := fset.Position(file.Pos(offset)).Line
			u := Unit{Text: strings.TrimRight(trimmed, "\n"), Line: line, Offset: offset, Declaration: isDeclaration(first, text)}
			switch {
			case codeStart >= 0:
				u.CodeStart, u.CodeEnd = codeStart-offset, codeEnd-offset
				out = append(out, u)
			case len(out) > 0:
				// Comments after the last piece of code belong to it.
				prev := &out[len(out)-1]
				prev.Text = strings.TrimRight(code[prev.Offset:end], "\n")
			default: // a cell of comments only
				u.CodeStart, u.CodeEnd = len(u.Text), len(u.Text)
				out = append(out, u)
			}
		}
		start, first, codeStart, codeEnd = end, token.ILLEGAL, -1, -1
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		switch tok {
		case token.FOR, token.IF, token.SWITCH, token.SELECT:
			header = header || depth == 0
		case token.LBRACE:
			if depth == 0 && !compositeLiteral(recent) {
				header = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.SEMICOLON:
			if depth == 0 && !header {
				end := off
				if lit == ";" {
					end++
				}
				flush(end)
				continue
			}
		}
		if first == token.ILLEGAL && tok != token.COMMENT {
			first = tok
		}
		if tok != token.COMMENT && tok != token.SEMICOLON {
			if codeStart < 0 {
				codeStart = off
			}
			codeEnd = off + tokenLen(tok, lit)
		}
		if tok != token.COMMENT {
			recent = append(recent[max(len(recent)-7, 0):], tok)
		}
	}
	flush(len(code))
	return out
}

// tokenLen is the length in the source of a token the scanner returned
// with literal text lit.
func tokenLen(tok token.Token, lit string) int {
	if lit != "" {
		return len(lit)
	}
	return len(tok.String())
}

// compositeLiteral reports whether a { that follows the tokens recent
// (the last few, oldest first) opens a composite literal of a slice, array
// or map type (`map[string]int{`, `[]*pkg.T{`) rather than a block: in an
// if, for or switch header such literals need no parentheses.
func compositeLiteral(recent []token.Token) bool {
	i := len(recent) - 1
	if i < 0 || recent[i] != token.IDENT {
		return false
	}
	i--
	if i >= 1 && recent[i] == token.PERIOD && recent[i-1] == token.IDENT { // pkg.T
		i -= 2
	}
	for i >= 0 && recent[i] == token.MUL {
		i--
	}
	return i >= 0 && recent[i] == token.RBRACK
}

// isDeclaration reports whether a unit beginning with first is a
// top-level declaration: an import, a type, a var or a const, or a func
// that parses as a function or method declaration (a func literal called
// in place is a statement).
func isDeclaration(first token.Token, text string) bool {
	switch first {
	case token.IMPORT, token.TYPE, token.VAR, token.CONST:
		return true
	case token.FUNC:
		_, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution)
		return err == nil
	}
	return false
}

// ByteOffset returns the byte offset in s of its n-th character: Jupyter
// counts a cursor in characters, Go's parsers in bytes.
func ByteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}
