// The code cells' editor: CodeMirror 6, the editor JupyterLab uses, with
// Go's syntax, and Jupyter's keys: Shift-Enter runs the cell, Tab
// completes the name before the cursor (or indents), Shift-Tab shows what
// the engine knows of the name at the cursor. Completion and inspection
// ask the page's engine, which answers from the session: a student's own
// variables complete as the packages' names do.
//
// A page shows each cell's source highlighted as CodeMirror highlights
// it, and makes the cell's CodeMirror editor when the cell is first
// clicked, focused or changed, or when the page is idle once the engine
// started: making all of them at once took a second on a page of 22
// cells, while the engine was starting.
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import {
  EditorView,
  keymap,
  drawSelection,
  highlightActiveLine,
  showTooltip,
} from "@codemirror/view";
import {
  defaultKeymap,
  history,
  historyKeymap,
  indentMore,
  indentLess,
} from "@codemirror/commands";
import {
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
  defaultHighlightStyle,
} from "@codemirror/language";
import {
  acceptCompletion,
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  startCompletion,
  completionStatus,
} from "@codemirror/autocomplete";
import { go, goLanguage } from "@codemirror/lang-go";
import { highlightCode } from "@lezer/highlight";
import { StyleModule } from "style-mod";

// Jupyter counts a cursor's position in characters (code points);
// CodeMirror, as JavaScript does, in UTF-16 code units.
const toCharacters = (text, offset) => Array.from(text.slice(0, offset)).length;
const toUnits = (text, characters) =>
  Array.from(text).slice(0, characters).join("").length;

// The inspection shown under the cursor (Shift-Tab), or null.
const setInspection = StateEffect.define();
const inspection = StateField.define({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) {
      if (e.is(setInspection)) {
        return e.value;
      }
    }
    return tr.docChanged || tr.selection ? null : value;
  },
  provide: (field) => showTooltip.from(field),
});

// showHighlighted writes code into node, highlighted with the classes of
// the editor's highlight style.
function showHighlighted(node, code) {
  StyleModule.mount(document, defaultHighlightStyle.module);
  highlightCode(
    code,
    goLanguage.parser.parse(code),
    defaultHighlightStyle,
    (text, classes) => {
      if (classes) {
        const span = document.createElement("span");
        span.className = classes;
        span.textContent = text;
        node.append(span);
      } else {
        node.append(text);
      }
    },
    () => node.append("\n"),
  );
}

// whenIdle calls f when the page is idle, with a deadline, or after a
// second; where there is no requestIdleCallback (Safari), after 50 ms.
const whenIdle = window.requestIdleCallback
  ? (f) => requestIdleCallback(f, { timeout: 1000 })
  : (f) => setTimeout(() => f({ timeRemaining: () => 0 }), 50);

// makeWhenIdle makes the editors, a few at a time, when the page is idle
// (or has not been for a second).
export function makeWhenIdle(editors) {
  const rest = editors.filter((e) => !e.view);
  const next = (deadline) => {
    do {
      rest.shift().make();
    } while (rest.length > 0 && deadline.timeRemaining() > 10);
    if (rest.length > 0) {
      whenIdle(next);
    }
  };
  if (rest.length > 0) {
    whenIdle(next);
  }
}

// A CodeEditor is one code cell's editor, in parent.
//
// engine answers complete(code, cursorPos) and inspect(code, cursorPos)
// with Promises of the contents of Jupyter's complete_reply and
// inspect_reply; run runs the cell (Shift-Enter).
export class CodeEditor {
  constructor({ parent, doc, engine, run }) {
    this.parent = parent;
    this.doc = doc;
    this.engine = engine;
    this.run = run;
    this.view = null; // the CodeMirror editor, once made
    this.offered = null; // the completions Tab asked for, while their list is open
    this.placeholder = document.createElement("pre");
    this.placeholder.className = "tnb-source";
    this.placeholder.tabIndex = 0;
    this.placeholder.title = "Click to edit";
    showHighlighted(this.placeholder, doc);
    // A click puts the cursor where it was, in the editor it makes.
    this.placeholder.addEventListener("mousedown", (e) => {
      e.preventDefault();
      this.make();
      const pos = this.view.posAtCoords({ x: e.clientX, y: e.clientY });
      if (pos !== null) {
        this.view.dispatch({ selection: { anchor: pos } });
      }
      this.view.focus();
    });
    this.placeholder.addEventListener("focus", () => this.focus());
    parent.append(this.placeholder);
  }

  // make replaces the highlighted source with the CodeMirror editor.
  make() {
    if (this.view) {
      return;
    }
    this.view = new EditorView({
      state: EditorState.create({
        doc: this.doc,
        extensions: [
          Prec.highest(
            keymap.of([
              { key: "Shift-Enter", run: () => (this.run(), true) },
              { key: "Tab", run: (view) => this.tab(view) },
              { key: "Shift-Tab", run: (view) => (this.inspect(view), true) },
            ]),
          ),
          history(),
          drawSelection(),
          highlightActiveLine(),
          indentOnInput(),
          indentUnit.of("\t"),
          EditorState.tabSize.of(4),
          bracketMatching(),
          closeBrackets(),
          syntaxHighlighting(defaultHighlightStyle),
          go(),
          inspection,
          autocompletion({
            override: [() => this.takeOffered()],
            activateOnTyping: false,
            icons: false,
          }),
          keymap.of([
            ...closeBracketsKeymap,
            ...completionKeymap,
            ...historyKeymap,
            ...defaultKeymap,
            { key: "Mod-]", run: indentMore },
            { key: "Mod-[", run: indentLess },
          ]),
        ],
      }),
    });
    this.placeholder.replaceWith(this.view.dom);
    this.placeholder = null;
  }

  get source() {
    return this.view ? this.view.state.doc.toString() : this.doc;
  }

  // Setting the source makes the editor, and puts the cursor at the end.
  set source(text) {
    this.make();
    this.view.dispatch({
      changes: { from: 0, to: this.view.state.doc.length, insert: text },
      selection: { anchor: text.length },
    });
  }

  focus() {
    this.make();
    this.view.focus();
  }

  // takeOffered gives the list its completions, once: typing on with
  // the list open closes it, as the engine's matches were for the text
  // before.
  takeOffered() {
    const offered = this.offered;
    this.offered = null;
    return offered;
  }

  // tab completes the name before the cursor, as Jupyter's Tab does: one
  // match replaces it, several are listed to choose from (Tab or Enter
  // picks). At the start of a line, or after a space, it indents.
  tab(view) {
    if (completionStatus(view.state) === "active") {
      return acceptCompletion(view);
    }
    const { head, empty } = view.state.selection.main;
    const before = view.state.sliceDoc(view.state.doc.lineAt(head).from, head);
    if (!empty || !/[\p{L}\p{N}_.]$/u.test(before)) {
      return indentMore(view);
    }
    const code = view.state.doc.toString();
    this.engine.complete(code, toCharacters(code, head)).then((reply) => {
      if (
        reply.status !== "ok" ||
        view.state.doc.toString() !== code ||
        reply.matches.length === 0
      ) {
        return;
      }
      const from = toUnits(code, reply.cursor_start);
      const to = toUnits(code, reply.cursor_end);
      if (reply.matches.length === 1) {
        const match = reply.matches[0];
        view.dispatch({
          changes: { from, to, insert: match },
          selection: { anchor: from + match.length },
        });
        return;
      }
      const types =
        (reply.metadata && reply.metadata._jupyter_types_experimental) || [];
      this.offered = {
        from,
        to,
        filter: false,
        options: reply.matches.map((label, i) => ({
          label,
          detail:
            types[i] && types[i].signature ? types[i].signature : undefined,
          type: types[i] && types[i].type,
        })),
      };
      startCompletion(view);
    });
    return true;
  }

  // inspect shows what the engine knows of the name at the cursor, under
  // it, until the text or the cursor changes.
  inspect(view) {
    const code = view.state.doc.toString();
    const head = view.state.selection.main.head;
    this.engine.inspect(code, toCharacters(code, head)).then((reply) => {
      if (
        reply.status !== "ok" ||
        !reply.found ||
        view.state.doc.toString() !== code
      ) {
        return;
      }
      const text = reply.data["text/plain"] || "";
      view.dispatch({
        effects: setInspection.of({
          pos: head,
          above: false,
          create: () => {
            const dom = document.createElement("pre");
            dom.className = "tnb-inspection";
            dom.textContent = text;
            return { dom };
          },
        }),
      });
    });
  }
}
