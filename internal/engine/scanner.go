package engine

// STUB: replaced by the scanner work. Signatures are the contract.

// segment is one piece of a string scanned for ${{ }}.
type segment struct {
	text string // literal text, or the expression between ${{ and }}
	expr bool   // text is a CEL expression
	off  int    // byte offset of text in the scanned string
}

// scanSegments splits s into literal and ${{ }} segments.
func scanSegments(s string) ([]segment, *exprError) { panic("not implemented") }
