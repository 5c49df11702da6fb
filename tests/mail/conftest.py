from tests.support.mail import mail_sink

__all__ = ["mail_sink"]
