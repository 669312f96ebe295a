// Package tensornb holds the source of the tensornb module, so that the
// tensornb command can install, beside the kernel, the very tensor and
// display packages its notebooks import: a notebook then builds against
// the installed version, with no network.
package tensornb

import "embed"

// Version is tensornb's version.
const Version = "0.1.0"

// Source is the module's go.mod, go.sum and the packages cells import
// (cellpanic, which the compiled engine puts in every cell, among them,
// and the packages it imports).
//
//go:embed go.mod go.sum tensor/*.go tensor/*.s display/*.go display/*.js check/*.go widget/*.go internal/nbformat/*.go internal/displaysink/*.go internal/widgetcomm/*.go internal/storagecount/*.go internal/gradeseed/*.go kernel/cellpanic/*.go kernel/cellstream/*.go kernel/internal/textpipe/*.go
var Source embed.FS
