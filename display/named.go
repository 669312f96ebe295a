package display

// Grid draws the tensor's grid as Grid does, titled with its name: the
// heading starts with the name and the panels of a tensor of more than
// two dimensions are titled y[0, :, :].
func (n Named) Grid() Renderer {
	return grid{x: n.Tensor, show: showValues | showSlots, name: n.Name}
}

// OffsetGrid draws the tensor's grid as OffsetGrid does, titled with its
// name.
func (n Named) OffsetGrid() Renderer { return grid{x: n.Tensor, show: showSlots, name: n.Name} }

// ValueGrid draws the tensor's grid as ValueGrid does, titled with its
// name.
func (n Named) ValueGrid() Renderer { return grid{x: n.Tensor, show: showValues, name: n.Name} }

// Card draws the tensor's layout card as Card does, with its name as the
// first row.
func (n Named) Card() Renderer { return card{x: n.Tensor, name: n.Name} }

// Layout draws the tensor's card, grid and storage strip as Layout does,
// titled with its name.
func (n Named) Layout() Renderer { return layout{x: n.Tensor, name: n.Name} }

// Broadcast draws the tensor's positions and the slots they read as
// Broadcast does, the positions written with its name: y[1, 2].
func (n Named) Broadcast() Renderer { return broadcast{x: n.Tensor, name: n.Name} }

// Strip draws the tensor's storage as Strip does, titled with its name:
// the storage of y, and where y's elements start.
func (n Named) Strip() Renderer { return strip{x: n.Tensor, name: n.Name} }

// Explorer draws the interactive explorer of the matrix as Explorer does,
// calling it by its name where Explorer calls it a: in its title, in each
// layout's expression (y.T, y[:, 1::2]), in the sentences that explain
// them and in the text form.
func (n Named) Explorer() Renderer { return explorer{a: n.Tensor, name: n.Name} }
