/**
 * The index page's only script: click a column heading to sort the sessions by it (again to reverse). Each cell's
 * `data-v` is what it sorts by, numbers as numbers. Inline and allowed by its hash (the page loads nothing).
 */
export const INDEX_SORT_SCRIPT = `(() => {
  const table = document.getElementById("sessions");
  if (!table) return;
  const body = table.tBodies[0];
  const heads = [...table.tHead.rows[0].cells];
  heads.forEach((th, col) => {
    if (!th.dataset.sort) return;
    th.tabIndex = 0;
    const sort = () => {
      const down = th.getAttribute("aria-sort") !== "descending";
      for (const h of heads) h.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      const value = (row) => row.cells[col].dataset.v ?? row.cells[col].textContent;
      const numeric = th.dataset.sort === "number";
      const rows = [...body.rows].sort((a, b) => {
        const x = value(a), y = value(b);
        const c = numeric ? Number(x) - Number(y) : String(x).localeCompare(String(y));
        return down ? -c : c;
      });
      for (const row of rows) body.appendChild(row);
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
  });
})();`;
