// Annotation of the move shown: the annotator's mark (!, ?, !!, ??, !?, ?!) and a comment, both
// written in the record; promoting and deleting variations (the tree is edited in board.js).

const $ = (id) => document.getElementById(id);

export function setUpAnnotation(ui) {
  for (const button of document.querySelectorAll("#nags button")) {
    button.addEventListener("click", () => {
      const n = ui.node();
      if (n.parent === null) return;
      n.nag = button.dataset.nag;
      fillAnnotation(n);
      ui.changed();
    });
  }
  $("comment-text").addEventListener("input", () => {
    const n = ui.node();
    if (n.parent === null) return;
    n.comment = $("comment-text").value.replace(/\s+/g, " ").trimStart();
    ui.changed();
  });
  $("promote").addEventListener("click", () => { $("annotate-said").textContent = ui.promoteVariation(); });
  $("delete-move").addEventListener("click", () => { $("annotate-said").textContent = ui.deleteFromHere(); });
}

// The panel for node `n`: its mark lit, its comment (the start has neither).
export function fillAnnotation(n) {
  const atStart = n.parent === null;
  for (const button of document.querySelectorAll("#nags button")) {
    button.disabled = atStart;
    button.classList.toggle("on", !atStart && (n.nag || "") === button.dataset.nag);
  }
  const text = $("comment-text");
  text.disabled = atStart;
  if (document.activeElement !== text) text.value = atStart ? "" : n.comment || "";
  $("promote").disabled = $("delete-move").disabled = atStart;
  $("annotate-said").textContent = "";
}
