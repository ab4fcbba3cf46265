// "Load your cluster": paste (or pick a file with) `kubectl get ... -o yaml` output; the worker
// turns it into a frozen what-if scenario (wasm `importCluster`) and the page loads it.
// Everything stays in the browser: the text is never sent anywhere.
import { h } from "../dom.js";

export const DUMP_COMMAND =
  "kubectl get nodes,pods,rs,deploy,sts,ds,jobs,cronjobs,controllerrevisions,pvc -A -o yaml > cluster.yaml";

export class ImportView {
  /** onImported(scenarioYaml) loads the scenario; client.importCluster(text) converts. */
  constructor(root, { client, onImported }) {
    this.client = client;
    this.onImported = onImported;
    this.details = h("details", { class: "import", id: "import-details" });
    this.area = h("textarea", {
      id: "import-text",
      spellcheck: "false",
      wrap: "off",
      rows: "6",
      "aria-label": "kubectl get -o yaml output",
      placeholder: "Paste the output of the command above (YAML or JSON)",
      autocapitalize: "off",
    });
    this.file = h("input", { type: "file", id: "import-file", accept: ".yaml,.yml,.json,.txt", "aria-label": "Cluster dump file" });
    this.file.addEventListener("change", () => this.readFile());
    this.error = h("div", { class: "editor-error", id: "import-error", role: "alert", hidden: true });
    this.note = h("p", { class: "muted", id: "import-note", role: "status" });
    this.details.append(
      h("summary", {}, "Load your cluster"),
      h("p", { class: "muted" }, "Run this against your cluster, then paste the output or pick the file. The objects load exactly as dumped and the existing pods are frozen: scale, roll out or fast-forward to see what the controllers would do."),
      h("pre", { class: "import-command" }, h("code", {}, DUMP_COMMAND)),
      h("div", { class: "row" }, h("label", {}, "File ", this.file)),
      this.area,
      h("div", { class: "row" }, h("button", { type: "button", id: "import-run", onclick: () => this.run() }, "Import")),
      this.error,
      this.note,
    );
    root.replaceChildren(this.details);
  }

  open() {
    this.details.open = true;
    this.area.focus();
  }

  async readFile() {
    const f = this.file.files?.[0];
    if (!f) return;
    this.area.value = await f.text();
    await this.run();
  }

  async run() {
    const text = this.area.value;
    this.error.hidden = true;
    this.note.textContent = "";
    if (!text.trim()) {
      this.showError("Paste the output of the kubectl command first.");
      return;
    }
    let yaml;
    try {
      yaml = await this.client.importCluster(text);
    } catch (e) {
      if (!e.fatal) this.showError(e.message);
      return;
    }
    const warnings = yaml.split("\n").filter((l) => l.startsWith("# warning: ")).length;
    // Set before loading, so the first frame of the imported cluster already sees it.
    document.body.dataset.imported = "1";
    const ok = await this.onImported(yaml);
    if (!ok) delete document.body.dataset.imported;
    else {
      this.note.textContent = warnings
        ? `Imported (${warnings} item(s) skipped: see the warnings at the top of the scenario).`
        : "Imported: the scenario editor holds your cluster.";
    }
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = false;
  }
}
