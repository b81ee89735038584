import { useEffect } from "react";

export function Banner({ label }) {
  useEffect(() => {
    document.title = label;
  }, []);
  return <img src="/banner.png" alt="banner" />;
}
