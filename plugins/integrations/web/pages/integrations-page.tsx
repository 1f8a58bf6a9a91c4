export default function IntegrationsPage() {
  return null;
}
