// Package compiled says which packages an instant engine has compiled
// in: yaegi's tables of their names, by import path, and what follows
// from them for a cell (whether it may import a package, which package a
// name means). Every engine has tensor, display, check and widget
// (package symbols); the standard packages differ: a server's engine has
// yaegi's whole standard library, a browser's a chosen few
// (symbols/browserstd). Each host gives its own Tables.
package compiled
