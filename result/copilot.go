package result

import (
	"github.com/toolfind/toolfind/copilot"
)

// deliverCopilot is Copilot CLI 1.0.102's path (copilot.md §1.4, the
// copilot package's Deliver): text blocks joined with nothing between
// them, structuredContent appended, resource links and (under a model
// provider of the user's own) images dropped, errors prefixed with the
// server's name; over 20,480 UTF-8 bytes the text is saved to a file and
// replaced by a notice with a 500-character preview.
func deliverCopilot(r *CallResult, in Input) Delivery {
	d := Delivery{Client: copilot.ID.String()}
	c := copilot.Deliver(in.server(), r.Value, copilot.DeliverOptions{})
	d.setBlocks([]ShownBlock{{Type: "text", Text: c.Text}})
	d.Notes = append(d.Notes, c.Notes...)
	for _, x := range c.Dropped {
		d.Notes = append(d.Notes, x+" content is not sent to the model")
	}
	if !c.Spilled {
		d.Verdict = Whole
		d.Detail = "delivered whole: " + group(c.Bytes) + " bytes (a result over " + group(copilot.LargeOutputBytes) + " bytes is saved to a file)"
		return d
	}
	d.Verdict = Replaced
	d.Detail = "replaced by a file reference: " + group(c.Bytes) + " bytes is over " + group(copilot.LargeOutputBytes) +
		"; the model gets the saved file's path and the first " + group(copilot.PreviewChars) + " characters"
	return d
}
