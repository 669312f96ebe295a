package front

import "errors"

// The contents of the messages a cell's execution sends: its outputs on
// iopub and its execute_reply. They are built here, apart from the
// sockets, so that every transport sends the same: the Kernel on ZeroMQ
// (shell.go) and, in a browser, where there is no ZeroMQ, the engine's
// own (kernel/internal/browser).

// StreamContent is the content of a stream message: text the cell wrote
// to "stdout" or "stderr".
func StreamContent(name, text string) map[string]any {
	return map[string]any{"name": name, "text": text}
}

// DisplayMessage is the message of a display: display_data, or
// update_display_data if it replaces the display of id, and its content.
func DisplayMessage(data, metadata map[string]any, id string, update bool) (msgType string, content map[string]any) {
	content = map[string]any{"data": data, "metadata": orEmptyMap(metadata), "transient": map[string]any{}}
	if id != "" {
		content["transient"] = map[string]any{"display_id": id}
	}
	if update {
		return "update_display_data", content
	}
	return "display_data", content
}

// ResultContent is the content of an execute_result: the value of the
// cell's last expression, Out[count].
func ResultContent(count int, data, metadata map[string]any) map[string]any {
	return map[string]any{"execution_count": count, "data": data, "metadata": orEmptyMap(metadata)}
}

// AsCellError is the cell error err is, or, if err is another error, the
// engine's failure (EngineError); its traceback is never nil, as clients
// expect a list.
func AsCellError(err error) *CellError {
	var ce *CellError
	if !errors.As(err, &ce) {
		ce = EngineError(err)
	}
	if ce.Traceback == nil {
		ce.Traceback = []string{}
	}
	return ce
}

// ErrorContent is the content of the error message of a cell that failed.
func ErrorContent(ce *CellError) map[string]any {
	return map[string]any{"ename": ce.Name, "evalue": ce.Value, "traceback": ce.Traceback}
}

// ExecuteReply is the content of the execute_reply to a cell that ran as
// execution count count: ok if ce is nil, else its error.
func ExecuteReply(count int, ce *CellError) map[string]any {
	if ce == nil {
		return map[string]any{"status": "ok", "execution_count": count, "user_expressions": map[string]any{}, "payload": []any{}}
	}
	return map[string]any{
		"status": "error", "execution_count": count,
		"ename": ce.Name, "evalue": ce.Value, "traceback": ce.Traceback,
	}
}

// CompleteReply is the content of the complete_reply with completion c
// (with no matches at the cursor, for a completion that failed); the
// matches' types, if any, are its metadata._jupyter_types_experimental.
func CompleteReply(c Completion) map[string]any {
	if c.Matches == nil {
		c.Matches = []string{}
	}
	metadata := map[string]any{}
	if len(c.Types) > 0 {
		metadata["_jupyter_types_experimental"] = c.Types
	}
	return map[string]any{
		"status": "ok", "matches": c.Matches, "cursor_start": c.CursorStart, "cursor_end": c.CursorEnd, "metadata": metadata,
	}
}

// InspectReply is the content of the inspect_reply with data, if found.
func InspectReply(data map[string]any, found bool) map[string]any {
	if !found {
		data = map[string]any{}
	}
	return map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}}
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
