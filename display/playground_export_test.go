package display

import "github.com/tensornb/tensornb/tensor"

// The playground's layout arithmetic, for its tests in package
// display_test.

type (
	PlayLayout = playLayout
	PlayState  = playState
	PlayPreset = playPreset
	PlayBase   = playBase
)

// PlayBaseOf returns what the playground of x (nil for a blank one),
// called name, tells its script of x.
func PlayBaseOf(x *tensor.Tensor, name string) PlayBase {
	return *playground{x: x, name: name}.base()
}

// PlayLayoutJS is playlayout.js's function expression, which takes a
// PlayBase and returns classify.
var PlayLayoutJS = expression(playlayoutJS)

// PlayClassify works out what the playground of x (nil for a blank one),
// called name, shows for layout l.
func PlayClassify(x *tensor.Tensor, name string, l PlayLayout) PlayState {
	return playClassify(playground{x: x, name: name}.base(), l)
}

// PlayPresets returns the presets of the playground of x.
func PlayPresets(x *tensor.Tensor, name string) []PlayPreset {
	return playground{x: x, name: name}.base().presets()
}

// PlayLimits are the bounds of the playground's controls: storage slots,
// positions, dimensions, |stride| and offset.
var PlayLimits = [5]int{playMaxSlots, playMaxCells, playMaxDims, playMaxStride, playMaxOffset}
