package result

import (
	"github.com/toolfind/toolfind/gemini"
)

// deliverGemini is Gemini CLI 0.61.0's path (gemini.md §4, the gemini
// package's Deliver): text wrapped in <untrusted_context> and joined with
// "\n" into {"output": …}, images as parts after it, audio dropped,
// structuredContent ignored, isError as the whole result in an error
// message; a single text part over 40,000 characters keeps its first 20%
// and last 80% under a notice naming the saved file.
func deliverGemini(r *CallResult, in Input) Delivery {
	d := Delivery{Client: gemini.ID.String()}
	name, _ := gemini.ToolName(in.server(), in.tool())
	opts := gemini.DeliverOptions{}
	if in.Definition != nil {
		opts.OutputSchema = in.Definition.OutputSchema.Exists()
	}
	g := gemini.Deliver(in.tool(), name, r.Value, opts)
	blocks := []ShownBlock{{Type: "text", Text: g.Text}}
	for _, x := range g.Inline {
		blocks = append(blocks, ShownBlock{Type: "image", MimeType: x.MimeType, DataBytes: len(x.Data)})
	}
	d.setBlocks(blocks)
	switch {
	case g.Error:
		d.Notes = append(d.Notes, `the text is functionResponse.response.error`)
	case g.Response == "{}":
		d.Notes = append(d.Notes, `nothing to read: functionResponse.response is {}`)
	default:
		d.Notes = append(d.Notes, `the text is functionResponse.response.output`)
	}
	d.Notes = append(d.Notes, g.Notes...)
	for _, m := range g.Dropped {
		d.Notes = append(d.Notes, "binary content ("+m+") is not sent to the model")
	}
	if !g.Truncated {
		d.Verdict = Whole
		d.Detail = "delivered whole: " + group(g.OriginalCharsOr(d.ShownChars)) + " characters (a single text part is cut above " + group(g.Threshold) + ")"
		if g.Error {
			d.Detail = "delivered as an error message of " + group(d.ShownChars) + " characters (error results are never cut)"
		}
		return d
	}
	d.Verdict = Cut
	d.Detail = "cut: the first " + group(g.Threshold*2/10) + " and the last " + group(g.Threshold-g.Threshold*2/10) + " of " + group(g.OriginalChars) +
		" characters kept (" + group(g.Omitted) + " omitted) under a notice naming the file the full text is saved to"
	d.Notes = append(d.Notes, "the saved file's path stands for Gemini CLI's "+g.SavedFile)
	return d
}
