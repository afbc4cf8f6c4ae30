export default function(component) {
  const { setTriggerValue } = component;
  window.__dtlearnPickNode = (node) => setTriggerValue("node", node);
  return () => { delete window.__dtlearnPickNode; };
}
