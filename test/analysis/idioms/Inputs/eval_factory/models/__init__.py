import models.cls_hrnet
import models.cls_plain
