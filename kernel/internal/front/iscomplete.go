package front

import (
	"go/scanner"
	"go/token"
	"strings"
)

// IsComplete says whether a Go cell is ready to run, as an
// is_complete_reply does: "complete"; "incomplete" with the indent the
// next line should get, when brackets are still open, a string or comment
// is unterminated, or the last token asks for more (an operator, a comma,
// a dot); or "invalid", when a bracket closes that was never opened or
// the text is not Go at all.
func IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	fset := token.NewFileSet()
	file := fset.AddFile("cell.go", -1, len(code))
	var s scanner.Scanner
	unterminated, invalid := false, false
	s.Init(file, []byte(code), func(_ token.Position, msg string) {
		if strings.Contains(msg, "not terminated") {
			unterminated = true
		} else {
			invalid = true
		}
	}, scanner.ScanComments)

	var open []token.Token
	last := token.ILLEGAL
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			open = append(open, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) == 0 || !matches(open[len(open)-1], tok) {
				return "invalid", ""
			}
			open = open[:len(open)-1]
		case token.SEMICOLON:
			if lit == "\n" { // an automatic semicolon says nothing about the last token
				continue
			}
		case token.COMMENT:
			continue
		}
		last = tok
	}
	switch {
	case unterminated:
		return "incomplete", strings.Repeat("\t", len(open))
	case invalid:
		return "invalid", ""
	case len(open) > 0:
		return "incomplete", strings.Repeat("\t", len(open))
	case asksForMore(last):
		return "incomplete", "\t"
	}
	return "complete", ""
}

func matches(open, close token.Token) bool {
	return open == token.LPAREN && close == token.RPAREN ||
		open == token.LBRACK && close == token.RBRACK ||
		open == token.LBRACE && close == token.RBRACE
}

// asksForMore reports whether a cell ending with tok cannot be finished:
// a binary operator, an assignment, a comma, a dot or a colon.
func asksForMore(tok token.Token) bool {
	switch tok {
	case token.COMMA, token.PERIOD, token.COLON, token.ARROW:
		return true
	}
	return tok.IsOperator() && tok != token.INC && tok != token.DEC &&
		tok != token.RPAREN && tok != token.RBRACK && tok != token.RBRACE && tok != token.SEMICOLON && tok != token.ELLIPSIS
}
