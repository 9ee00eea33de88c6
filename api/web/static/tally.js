// "Check your tally": send the hand tally with the city, show which lines agree and why others do not.
import { $, el, signed } from "./dom.js";
import { api } from "./api.js";
import { scoreBody } from "./gamepage.js";
import { state } from "./state.js";
import { pageWords } from "./wording.js";

function tallyRow(cls, title, nums, why) {
  const mark = cls === "agree" ? "✓" : cls === "disagree" ? "✗" : "?";
  const li = el("li", { class: cls }, el("div", { class: "tally-head" }, el("span", { text: `${mark} ${title}` }), el("span", { class: "num", text: nums })));
  if (why) li.append(el("div", { class: "detail", text: pageWords(why) }));
  return li;
}

// report: the engine's TallyReport JSON (lines with agree true/false/null, missed items, totals).
export function renderTally(report) {
  const out = $("#tally-result");
  const lines = report.lines || [];
  const total = report.total || {};
  const missed = (report.missed || []).filter((item) => item.points);
  const bad = lines.filter((l) => l.agree !== true).length + missed.length + (total.difference ? 1 : 0);
  const summary = el("p", {
    class: "tally-summary " + (report.agree ? "agree" : "disagree"),
    text: report.agree
      ? "Your tally agrees with the computed score."
      : `${bad} line${bad === 1 ? "" : "s"} to look at · your total ${total.tally}, computed ${total.computed}`,
  });
  const list = el("ul", { class: "tally-lines" });
  for (const l of lines) {
    const cls = l.agree === true ? "agree" : l.agree === false ? "disagree" : "unmatched";
    const computed = l.computed === null || l.computed === undefined ? "—" : signed(l.computed);
    const same = !l.label || l.label.toLowerCase() === String(l.item).toLowerCase();
    list.append(tallyRow(cls, same ? l.item : `${l.item} (${l.label})`, `you ${signed(l.points)} · computed ${computed}`, l.why));
  }
  for (const item of missed) {
    list.append(tallyRow("unmatched", `not in your tally: ${item.label}`, `computed ${signed(item.points)}`, item.detail));
  }
  if (total.stated !== null && total.stated !== undefined) {
    const diff = total.difference;
    const why = diff ? `your total is ${diff > 0 ? "over" : "under"} by ${Math.abs(diff)}` : "";
    list.append(tallyRow(diff ? "disagree" : "agree", "total", `you ${total.stated} · computed ${total.computed}`, why));
  }
  out.replaceChildren(summary, list);
}

export async function checkTally() {
  const out = $("#tally-result");
  out.replaceChildren();
  const tally = $("#tally").value;
  if (!tally.trim()) { out.textContent = "Write your tally first."; return; }
  if (!state.rows.length) { out.textContent = "Scan or type a city first."; return; }
  try {
    renderTally(await api("/api/v1/check", { ...scoreBody(), tally }));
  } catch (err) {
    out.append(el("p", { class: "error", text: pageWords(err.message) }));
  }
}
