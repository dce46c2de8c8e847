package gemini_test

import (
	"fmt"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/gemini"
	"github.com/toolfind/toolfind/ojson"
)

// The name Gemini CLI's model calls a tool by.
func ExampleToolName() {
	fmt.Println(gemini.ToolName("weather", "forecast/daily"))
	fmt.Println(gemini.ToolName("edge", "a_tool.with-odd/chars and spaces and a really long name that goes past sixty four chars"))
	// Output:
	// mcp_weather_forecast_daily false
	// mcp_edge_a_tool.with-odd_chars...hat_goes_past_sixty_four_chars true
}

// What the model gets of a tool's result.
func ExampleDeliver() {
	r, _ := ojson.Parse([]byte(`{"content":[{"type":"text","text":"42"}],"structuredContent":{"n":42}}`))
	d := gemini.Deliver("answer", "mcp_calc_answer", r, gemini.DeliverOptions{})
	fmt.Println(d.Response)
	// Output:
	// {"output":"<untrusted_context>\n42\n</untrusted_context>"}
}

// Every tool declared up front, and the ones that are not.
func ExampleDeclare() {
	srv, _, _ := corpus.ParseCatalog("c.json", []byte(`{"servers":[
	 {"name":"files","tools":[{"name":"read","inputSchema":{"type":"object"}},{"name":"write_file","inputSchema":{"type":"object"}}]},
	 {"name":"my files","tools":[{"name":"list","inputSchema":{"type":"object"}}]}]}`))
	d := gemini.Declare(&corpus.Catalog{Servers: srv}, gemini.Config{AllTrusted: true})
	for _, e := range d.All {
		why := string(e.Why)
		if e.Declared {
			why = "declared"
		}
		fmt.Println(e.Tool.ID(), e.Name, why)
	}
	// Output:
	// files/read mcp_files_read declared
	// files/write_file mcp_files_write_file shadowed
	// my files/list mcp_my_files_list rule-misses-name
}
